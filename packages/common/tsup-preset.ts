/**
 * The build every published sibling package shares (each package's tsup.config.ts): ESM and CJS for Node 20
 * with declarations and source maps. A package on @zkwire/common inlines it, code and declarations: it is
 * private, so no version of it can skew against another.
 */
import type { Options } from 'tsup';

export interface PackageBuild {
  /** The entry points (default: src/index.ts). */
  entry?: string[];
  /** Inline @zkwire/common (the packages that use it). */
  inlineCommon?: boolean;
  /** Declarations (default: of every entry). */
  dts?: Options['dts'];
}

/** The tsup options of one package. */
export function packageBuild({
  entry = ['src/index.ts'],
  inlineCommon = false,
  dts,
}: PackageBuild = {}): Options {
  return {
    entry,
    format: ['esm', 'cjs'],
    ...(inlineCommon
      ? { noExternal: ['@zkwire/common'], dts: dts ?? { resolve: ['@zkwire/common'] } }
      : { dts: dts ?? true }),
    sourcemap: true,
    clean: true,
    target: 'node20',
  };
}
