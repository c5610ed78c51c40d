import { existsSync, statSync } from 'node:fs';
import { delimiter, join } from 'node:path';

/** Thrown when a Java component the tests need is not installed; the message says what to install. */
export class MissingComponentError extends Error {
  override readonly name = 'MissingComponentError';
  /** The Debian package that provides the component. */
  readonly debianPackage: string;
  constructor(what: string, debianPackage: string, hint = '') {
    super(
      `${what} not found. Install it with \`apt-get install ${debianPackage}\` (or run \`npm run setup\` as root)${hint}.`,
    );
    this.debianPackage = debianPackage;
  }
}

function onPath(name: string): string | undefined {
  const javaHome = process.env.JAVA_HOME;
  if (javaHome) {
    const candidate = join(javaHome, 'bin', name);
    if (existsSync(candidate)) return candidate;
  }
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    const candidate = join(dir, name);
    try {
      if (statSync(candidate).isFile()) return candidate;
    } catch {
      // not in this directory
    }
  }
  return undefined;
}

/** Path of the `java` launcher (`$JAVA_HOME/bin/java`, else `PATH`); throws naming `default-jre-headless`. */
export function findJava(): string {
  const java = onPath('java');
  if (!java) throw new MissingComponentError('Java runtime (`java`)', 'default-jre-headless');
  return java;
}

/** Path of the `javac` compiler (`$JAVA_HOME/bin/javac`, else `PATH`); throws naming `default-jdk-headless`. */
export function findJavac(): string {
  const javac = onPath('javac');
  if (!javac) throw new MissingComponentError('Java compiler (`javac`)', 'default-jdk-headless');
  return javac;
}
