import { describe, expect, it } from 'vitest';
import { CheckedPaths } from './checked-paths.js';
import { InvalidArgumentError } from './errors.js';
import { Chroot } from './paths.js';

describe('CheckedPaths', () => {
  it('maps a valid path through the chroot, the first time and from memory', () => {
    const paths = new CheckedPaths(new Chroot('/app'));
    expect(paths.serverPath('/a/b', 'getData', false)).toBe('/app/a/b');
    expect(paths.serverPath('/a/b', 'getData', false)).toBe('/app/a/b');
    expect(paths.serverPath('/', 'getData', false)).toBe('/app');
  });

  it('refuses an invalid path every time it is asked, naming the operation', () => {
    const paths = new CheckedPaths(new Chroot(''));
    for (let i = 0; i < 2; i++) {
      expect(() => paths.serverPath('/a//b', 'setData', false)).toThrow(InvalidArgumentError);
      expect(() => paths.serverPath('/a//b', 'setData', false)).toThrow(/setData|empty segment/);
    }
    expect(() => paths.serverPath(42 as unknown as string, 'exists', false)).toThrow(InvalidArgumentError);
  });

  it('keeps the sequential verdict apart: "/a/" is a valid prefix for a sequential create only', () => {
    const paths = new CheckedPaths(new Chroot(''));
    expect(paths.serverPath('/a/', 'create', true)).toBe('/a/');
    expect(() => paths.serverPath('/a/', 'create', false)).toThrow(InvalidArgumentError);
    expect(paths.serverPath('/a/', 'create', true)).toBe('/a/');
  });

  it("gives a path's server path as UTF-8 bytes, made once, and refuses a bad path as serverPath does", () => {
    const paths = new CheckedPaths(new Chroot('/app'));
    const bytes = paths.serverPathBytes('/a/é', 'multi[0].setData');
    expect(bytes.toString('utf8')).toBe('/app/a/é');
    expect(bytes.length).toBe(Buffer.byteLength('/app/a/é'));
    expect(paths.serverPathBytes('/a/é', 'multi[1].setData')).toBe(bytes);
    // the same entry serves serverPath, either way round
    expect(paths.serverPath('/a/é', 'getData', false)).toBe('/app/a/é');
    paths.serverPath('/b', 'getData', false);
    expect(paths.serverPathBytes('/b', 'multi[0].check').toString('utf8')).toBe('/app/b');
    expect(() => paths.serverPathBytes('/a/', 'multi[2].delete')).toThrow(/multi\[2\]\.delete/);
  });

  it('stays right after its table fills and is dropped', () => {
    const paths = new CheckedPaths(new Chroot('/r'));
    for (let i = 0; i < 3_000; i++) expect(paths.serverPath(`/n${i}`, 'getData', false)).toBe(`/r/n${i}`);
    expect(paths.serverPath('/n0', 'getData', false)).toBe('/r/n0');
    expect(() => paths.serverPath('/n0/', 'getData', false)).toThrow(InvalidArgumentError);
  });
});
