/*
 * JAAS option values are double-quoted strings; a quote or backslash inside would end or escape the value,
 * so names and passwords containing them are refused rather than escaped (JAAS escaping rules are loose).
 */
function quoted(what: string, value: string): string {
  if (/["\\\n\r]/.test(value))
    throw new TypeError(`JAAS ${what} must not contain quotes, backslashes or newlines`);
  return `"${value}"`;
}

/**
 * The JAAS `Server` section of a ZooKeeper server that accepts SASL DIGEST-MD5 for the given users
 * (name → password), security-setup.md §2.
 */
export function jaasServerConfig(users: Record<string, string>): string {
  const names = Object.keys(users);
  if (names.length === 0) throw new TypeError('jaasServerConfig: at least one user is needed');
  const lines = names.map((name) => {
    if (!/^[A-Za-z0-9_.-]+$/.test(name))
      throw new TypeError(`JAAS user name "${name}" must be [A-Za-z0-9_.-]+`);
    return `    user_${name}=${quoted('password', users[name] ?? '')}`;
  });
  return `Server {\n    org.apache.zookeeper.server.auth.DigestLoginModule required\n${lines.join('\n')};\n};\n`;
}

/** The JAAS `Client` section the Java ZooKeeper client reads for SASL DIGEST-MD5 (security-setup.md §5.1). */
export function jaasClientConfig(username: string, password: string): string {
  return (
    'Client {\n    org.apache.zookeeper.server.auth.DigestLoginModule required\n' +
    `    username=${quoted('user name', username)}\n    password=${quoted('password', password)};\n};\n`
  );
}
