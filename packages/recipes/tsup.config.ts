import { defineConfig } from 'tsup';

export default defineConfig({
  entry: ['src/index.ts'],
  format: ['esm', 'cjs'],
  // @zkwire/common is private: inlined, code and declarations, so no version of it can skew.
  noExternal: ['@zkwire/common'],
  dts: { resolve: ['@zkwire/common'] },
  sourcemap: true,
  clean: true,
  target: 'node20',
});
