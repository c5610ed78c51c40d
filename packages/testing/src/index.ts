export { type Dnsmasq, type SrvRecordSpec, type StartDnsmasqOptions, startDnsmasq } from './dns/dnsmasq.js';
export { type Ensemble, type StartEnsembleOptions, startEnsemble } from './ensemble.js';
export { type CallRecorder, callRecorder, type ListenerTarget, nextEvent, nextState } from './events.js';
export { type EventuallyOptions, EventuallyTimeoutError, eventually } from './eventually.js';
export { type FaultProxy, type ProxyDirection, startFaultProxy } from './fault-proxy.js';
export { findJava, findJavac, MissingComponentError } from './find-java.js';
export {
  type Closable,
  type EnsembleFixture,
  ensembleFixture,
  type Fixture,
  type ServerFixture,
  serverFixture,
} from './fixtures.js';
export {
  type FourLetterWordOptions,
  fourLetterWord,
  parseMntr,
  parseMode,
  parseWatchesByPath,
  type ServerMode,
} from './four-letter-word.js';
export {
  type FrameFuzzer,
  type FrameFuzzerOptions,
  type FuzzTally,
  frameFuzzer,
  seededRandom,
} from './frame-fuzzer.js';
export { freePort, freePorts } from './free-port.js';
export {
  connectResponseFrame,
  decodeConnectRequest,
  type HostileConnectRequest,
  type HostileConnectResponse,
  type HostilePeer,
  type HostileRequest,
  type HostileScript,
  type HostileServer,
  honestReply,
  notificationFrame,
  replyFrame,
  startHostileServer,
  zkFrame,
} from './hostile-server.js';
export {
  type CompiledJava,
  type CompileJavaOptions,
  compileJava,
  JavaCompileError,
  type JavaResult,
  type RunJavaOptions,
} from './java.js';
export {
  type EventMatch,
  JavaDriverError,
  type JavaLineDriver,
  type JavaLineDriverOptions,
  readJavaSources,
  startJavaLineDriver,
} from './java-driver.js';
export {
  type CuratorRelease,
  DEFAULT_CURATOR_VERSION,
  defaultCuratorVersion,
  type FindCuratorOptions,
  findCurator,
} from './releases/curator-release.js';
export { MATRIX_VERSIONS } from './releases/matrix.js';
export { ArtifactFetchError, cacheRoot, type MavenArtifact, mavenClasspath } from './releases/maven-fetch.js';
export {
  DEFAULT_ZOOKEEPER_VERSION,
  defaultZooKeeperVersion,
  findZooKeeper,
  versionAtLeast,
  type ZooKeeperRelease,
  type ZooKeeperSource,
} from './releases/zookeeper-release.js';
// TLS, x509 and SASL servers (owned by the security work; see src/secure/index.ts).
export * from './secure/index.js';
export {
  type StartZooKeeperOptions,
  startZooKeeper,
  type ZooKeeperServer,
  ZooKeeperStartError,
} from './server.js';
export { type ProcessWarning, recordWarnings, type WarningRecorder } from './warnings.js';
export type { ZooCfg } from './zoo-cfg.js';
