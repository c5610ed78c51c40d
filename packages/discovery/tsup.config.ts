import { defineConfig } from 'tsup';
import { packageBuild } from '../common/tsup-preset.js';

export default defineConfig(packageBuild({ inlineCommon: true }));
