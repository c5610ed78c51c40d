// Types of api-report.mjs, for its test.

/** A published package: its folder under packages/, its name, and each `exports` subpath with its ESM types. */
export interface PublishedPackage {
  dir: string;
  name: string;
  entries: { subpath: string; types: string }[];
}

export function publishedPackages(root: string): PublishedPackage[];
export function renderReport(root: string, pkg: PublishedPackage): string;
export function reportPath(pkg: PublishedPackage): string;
export function writeReports(root: string, outRoot?: string): string[];
export function checkReports(root: string): { ok: boolean; diff: string };
