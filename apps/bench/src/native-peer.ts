/**
 * Installs the native `zookeeper` package (a binding over the C client) into its own throwaway npm project,
 * apps/bench/.peers/native. Its install script builds the C client (cmake, gcc), and npm 11 runs a
 * dependency's install script only when the project approves it: the folder's package.json carries
 * `"allowScripts": { "zookeeper": true }`. Done once; later runs reuse the build.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { nativePeerDir } from './native-peer-dir.js';

/** Either usable, or why not. */
export type PeerStatus = { ok: true; detail: string } | { ok: false; reason: string };

function loads(): PeerStatus {
  const probe = spawnSync(
    process.execPath,
    ['-e', "const Z=require('zookeeper');if(typeof Z!=='function')throw new Error('no constructor');"],
    { cwd: nativePeerDir, encoding: 'utf8', timeout: 20_000 },
  );
  if (probe.status === 0) {
    const version = (
      JSON.parse(readFileSync(join(nativePeerDir, 'node_modules/zookeeper/package.json'), 'utf8')) as {
        version: string;
      }
    ).version;
    return { ok: true, detail: `zookeeper@${version}` };
  }
  return { ok: false, reason: lastLines(`${probe.stderr ?? ''}${probe.error?.message ?? ''}`, 3) };
}

function lastLines(text: string, n: number): string {
  return text
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.includes('Unknown user config') && !l.includes('Unknown env config'))
    .slice(-n)
    .join(' / ');
}

/** Makes the native package available, installing it when missing; never throws. */
export async function ensureNativePeer(log: (line: string) => void): Promise<PeerStatus> {
  if (existsSync(join(nativePeerDir, 'node_modules/zookeeper/package.json'))) {
    const status = loads();
    if (status.ok) return status;
    // Installed but not loadable (built for another Node, half-built): npm would call it up to date, so
    // start from scratch.
    rmSync(join(nativePeerDir, 'node_modules'), { recursive: true, force: true });
    rmSync(join(nativePeerDir, 'package-lock.json'), { force: true });
  }
  mkdirSync(nativePeerDir, { recursive: true });
  writeFileSync(
    join(nativePeerDir, 'package.json'),
    `${JSON.stringify({ name: 'zkwire-bench-native-peer', private: true, allowScripts: { zookeeper: true } }, null, 2)}\n`,
  );
  log('installing the native `zookeeper` package (builds the C client; once) ...');
  const logFile = join(nativePeerDir, 'install.log');
  const code = await new Promise<number>((resolve) => {
    const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
    const child = spawn(npm, ['install', 'zookeeper', '--foreground-scripts', '--no-fund', '--no-audit'], {
      cwd: nativePeerDir,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const out: Buffer[] = [];
    child.stdout.on('data', (c: Buffer) => out.push(c));
    child.stderr.on('data', (c: Buffer) => out.push(c));
    const timer = setTimeout(() => child.kill('SIGKILL'), 600_000);
    child.once('error', (error) => {
      out.push(Buffer.from(String(error)));
      resolve(-1);
    });
    child.once('close', (status) => {
      clearTimeout(timer);
      writeFileSync(logFile, Buffer.concat(out));
      resolve(status ?? -1);
    });
  });
  if (code !== 0) {
    const text = existsSync(logFile) ? readFileSync(logFile, 'utf8') : '';
    return {
      ok: false,
      reason: `npm install zookeeper failed (exit ${code}): ${lastLines(text, 3)} (see ${logFile})`,
    };
  }
  return loads();
}
