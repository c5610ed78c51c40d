import { type ChildProcess, execFile, type SpawnOptions, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { findJava, findJavac } from './find-java.js';
import { killOnExit } from './process-cleanup.js';

/** Options of {@link compileJava}. */
export interface CompileJavaOptions {
  /** Source files by path relative to the source root (`Driver.java`, `org/example/Driver.java`) → text. */
  sources: Record<string, string>;
  /** Jars or directories to compile and run against (e.g. `findCurator().classpath`). */
  classpath: string[];
}

/** Options of {@link CompiledJava.run}: spawn options plus extra JVM flags. */
export interface RunJavaOptions extends SpawnOptions {
  /** Extra JVM flags (`-Dkey=value`, ...). Every JVM already gets `-Xmx128m -XX:+UseSerialGC` and SLF4J at `warn`. */
  jvmFlags?: string[];
}

/** The result of {@link compileJava}: compiled classes and ways to run them. */
export interface CompiledJava {
  /** The directory holding the compiled classes. */
  dir: string;
  /** `dir` followed by the classpath it was compiled against: everything needed to run. */
  classpath: string[];
  /**
   * Starts `mainClass` (stdio piped unless `opts.stdio` says otherwise). The process is killed when the test
   * process exits; a driver that runs until told to stop should also exit when its stdin closes.
   */
  run(mainClass: string, args?: string[], opts?: RunJavaOptions): ChildProcess;
  /** Runs `mainClass` to completion and returns its output and exit code (128 + n when killed by signal n). */
  exec(mainClass: string, args?: string[], opts?: RunJavaOptions): Promise<JavaResult>;
}

/** What a finished Java program printed and how it exited. */
export interface JavaResult {
  stdout: string;
  stderr: string;
  code: number;
}

/** Thrown when javac rejects the sources; the message holds javac's output. */
export class JavaCompileError extends Error {
  override readonly name = 'JavaCompileError';
}

/* A small heap and one GC thread for every JVM; SLF4J's simple binding logs warnings only (its INFO lines would
 * only fill the drivers' stderr). */
const JVM_FLAGS = ['-Xmx128m', '-XX:+UseSerialGC', '-Dorg.slf4j.simpleLogger.defaultLogLevel=warn'];

const SIGNAL_NUMBERS: Record<string, number> = { SIGHUP: 1, SIGINT: 2, SIGKILL: 9, SIGTERM: 15 };

function javac(args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    execFile(findJavac(), args, { maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (error) reject(new JavaCompileError(`javac failed:\n${stdout}${stderr}`));
      else resolve();
    });
  });
}

/*
 * Compiled classes are cached in the temp dir by a hash of the sources and the classpath: test files compile
 * the same drivers, and javac costs a second or two of a small machine's CPU. A build goes to a private
 * directory first and is renamed into place, so parallel workers never see half a build.
 */
async function compileCached(options: CompileJavaOptions): Promise<string> {
  const hash = createHash('sha256');
  for (const [path, text] of Object.entries(options.sources).sort(([a], [b]) => a.localeCompare(b))) {
    hash.update(`${path}\0${text}\0`);
  }
  hash.update(options.classpath.join(':'));
  const dir = join(tmpdir(), `zkwire-java-${hash.digest('hex').slice(0, 16)}`);
  if (existsSync(join(dir, '.complete'))) return dir;

  const build = mkdtempSync(join(tmpdir(), 'zkwire-javac-'));
  try {
    const files = Object.entries(options.sources).map(([path, text]) => {
      const file = join(build, 'src', path.endsWith('.java') ? path : `${path}.java`);
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, text);
      return file;
    });
    const classes = join(build, 'classes');
    mkdirSync(classes);
    const classpath = options.classpath.length > 0 ? ['-cp', options.classpath.join(':')] : [];
    await javac(['-nowarn', '-encoding', 'UTF-8', '-d', classes, ...classpath, ...files]);
    writeFileSync(join(classes, '.complete'), '');
    try {
      renameSync(classes, dir);
    } catch (error) {
      // Another worker finished the same build first: theirs is as good as ours.
      if (!existsSync(join(dir, '.complete'))) throw error;
    }
    return dir;
  } finally {
    rmSync(build, { recursive: true, force: true });
  }
}

/**
 * Compiles Java sources with `javac` against `classpath` (at test time, into a temp dir) and returns a handle
 * to run them. Throws {@link MissingComponentError} naming `default-jdk-headless` when javac is missing, and
 * {@link JavaCompileError} with javac's output when the sources do not compile.
 */
export async function compileJava(options: CompileJavaOptions): Promise<CompiledJava> {
  if (Object.keys(options.sources).length === 0) throw new TypeError('compileJava: no sources given');
  const dir = await compileCached(options);
  const classpath = [dir, ...options.classpath];

  const run = (mainClass: string, args: string[] = [], opts: RunJavaOptions = {}): ChildProcess => {
    const { jvmFlags = [], ...spawnOptions } = opts;
    const child = spawn(
      findJava(),
      [...JVM_FLAGS, ...jvmFlags, '-cp', classpath.join(':'), mainClass, ...args],
      { stdio: 'pipe', ...spawnOptions },
    );
    killOnExit(child);
    return child;
  };

  const exec = (mainClass: string, args: string[] = [], opts: RunJavaOptions = {}): Promise<JavaResult> =>
    new Promise((resolve, reject) => {
      const child = run(mainClass, args, { ...opts, stdio: ['ignore', 'pipe', 'pipe'] });
      const stdout: Buffer[] = [];
      const stderr: Buffer[] = [];
      child.stdout?.on('data', (chunk: Buffer) => stdout.push(chunk));
      child.stderr?.on('data', (chunk: Buffer) => stderr.push(chunk));
      child.once('error', reject);
      child.once('close', (code, signal) => {
        resolve({
          stdout: Buffer.concat(stdout).toString('utf8'),
          stderr: Buffer.concat(stderr).toString('utf8'),
          code: code ?? 128 + (SIGNAL_NUMBERS[signal ?? ''] ?? 0),
        });
      });
    });

  return { dir, classpath, run, exec };
}
