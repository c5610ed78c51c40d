/**
 * The server versions `npm run test:matrix` proves, oldest first: the newest release of each minor line that
 * Maven Central serves and that runs on the JDKs here (3.8.7's parent POM is not served: 3.8.6 stands for 3.8).
 */
export const MATRIX_VERSIONS = ['3.5.10', '3.6.4', '3.7.2', '3.8.6', '3.9.5'] as const;
