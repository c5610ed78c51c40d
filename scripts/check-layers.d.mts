// Types of check-layers.mjs, for its test.

/** An import that breaks the layering, or a file outside every layer. */
export interface LayerViolation {
  /** The importing file, relative to the root. */
  file: string;
  /** The import as written, when the violation is an import. */
  specifier?: string;
  message: string;
}

export interface LayerReport {
  violations: LayerViolation[];
  filesPerLayer: Record<string, number>;
  /** The longest chain of non-test files, each importing the next. */
  floors: number;
  chain: string[];
  /** The longest chain of layers, each importing from the next. */
  layerFloors: number;
  layerChain: string[];
}

export const CLIENT_LAYERS: readonly string[];
export function sourceFiles(root: string): string[];
export function importSpecifiers(source: string): string[];
export function checkLayers(options: { root: string; layers?: readonly string[] }): LayerReport;
