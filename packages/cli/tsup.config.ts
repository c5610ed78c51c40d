import { defineConfig } from 'tsup';

export default defineConfig({
  // index: the library (run the CLI from code, the command table); bin: the `zkwire` executable.
  entry: ['src/index.ts', 'src/bin.ts'],
  format: ['esm', 'cjs'],
  dts: { entry: 'src/index.ts' },
  sourcemap: true,
  clean: true,
  target: 'node20',
});
