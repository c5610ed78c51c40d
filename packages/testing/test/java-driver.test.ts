import { describe, expect, it } from 'vitest';
import { JavaDriverError, readJavaSources, startJavaLineDriver } from '../src/index.js';

const sources = readJavaSources(import.meta.url, ['./java/EchoDriver.java']);
const start = (args: string[] = []) =>
  startJavaLineDriver({ sources, classpath: [], mainClass: 'EchoDriver', args, name: 'echo driver' });

describe('startJavaLineDriver', () => {
  it('sends commands and matches each reply to its command, ok or err', async () => {
    await using driver = await start();
    const [first, second] = await Promise.all([driver.call('echo', 'a', 1), driver.call('echo', 'b')]);
    expect([first, second]).toEqual(['a 1', 'b']);
    expect(await driver.json('echo', '{"n":2}')).toEqual({ n: 2 });
    const refused = await driver.call('fail', 'no', 'such', 'node').catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(JavaDriverError);
    expect((refused as Error).message).toBe('echo driver: no such node');
  });

  it('refuses words that would break the line protocol, before sending', async () => {
    await using driver = await start();
    await expect(driver.call('echo', 'two words')).rejects.toThrow(TypeError);
    await expect(driver.call('echo', '')).rejects.toThrow(TypeError);
    await expect(driver.call()).rejects.toThrow(TypeError);
    expect(await driver.call('echo', 'still-fine')).toBe('still-fine');
  });

  it('keeps events in order and waits for the n-th match, past or future', async () => {
    await using driver = await start();
    await driver.call('emit', 'term', '1');
    const second = driver.waitForEvent((event) => event.startsWith('term'), 2);
    await driver.call('emit', 'other');
    await driver.call('emit', 'term', '2');
    expect(await second).toBe('term 2');
    expect(await driver.waitForEvent('term 1')).toBe('term 1');
    expect(driver.events).toEqual(['term 1', 'other', 'term 2']);
    await expect(driver.waitForEvent('x', 0)).rejects.toThrow(RangeError);
  });

  it('fails the start with stderr when the driver exits before ready', async () => {
    await expect(start(['refuse'])).rejects.toThrow(/echo driver exited \(2\): refusing to start/);
  });

  it('fails pending calls and waiters when the driver exits on its own', async () => {
    const driver = await start();
    const waiter = driver.waitForEvent('never');
    await expect(driver.call('exit', 3)).rejects.toThrow(/echo driver exited \(3\)/);
    await expect(waiter).rejects.toThrow(/exited/);
    await expect(driver.call('echo', 'late')).rejects.toThrow(/exited/);
    await driver.close();
  });

  it('closes on stdin end, and can be killed', async () => {
    const closing = await start();
    await closing.close();
    await expect(closing.call('echo', 'x')).rejects.toThrow(/exited \(0\)/);
    const killed = await start();
    killed.kill();
    await expect(killed.call('echo', 'x')).rejects.toThrow(/exited \(SIGKILL\)/);
  });
});

describe('readJavaSources', () => {
  it('keys sources by file name and refuses names javac would not take', () => {
    expect(Object.keys(sources)).toEqual(['EchoDriver.java']);
    expect(sources['EchoDriver.java']).toContain('public class EchoDriver');
    expect(() => readJavaSources(import.meta.url, ['./java/not-a-class.txt'])).toThrow(TypeError);
    expect(() =>
      readJavaSources(import.meta.url, ['./java/EchoDriver.java', 'java/EchoDriver.java']),
    ).toThrow(/two sources are named EchoDriver.java/);
  });
});
