import { defineConfig } from 'tsup';
import { packageBuild } from '../common/tsup-preset.js';

// index: the library (run the CLI from code, the command table); bin: the `zkwire` executable.
export default defineConfig(
  packageBuild({ entry: ['src/index.ts', 'src/bin.ts'], dts: { entry: 'src/index.ts' } }),
);
