/** The logger type the recipes' client interface names; reports themselves go through safe-emit.ts. */
export type { WarnLogger as RecipeLogger } from './safe-emit.js';
