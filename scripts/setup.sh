#!/usr/bin/env bash
# Installs what the tests and the bench need from Debian: Maven (it fetches the ZooKeeper and Curator releases
# the tests run: scripts/fetch-releases.ts), Debian's ZooKeeper server (3.8.0, `version: 'debian'`), the C client
# tools, Debian's Curator 5.4.0 (the interop tests' older end) and a JDK (golden vectors, interop drivers, the Java
# bench contender).
# Safe to run again: it installs only what is missing, and only when it runs as root.
set -euo pipefail

need=()
[ -f /usr/share/java/zookeeper.jar ] || need+=(zookeeper)
[ -f /usr/share/java/curator-recipes.jar ] || need+=(libcurator-recipes-java)
[ -f /usr/share/java/curator-x-discovery.jar ] || need+=(libcurator-discovery-java) # discovery interop tests
[ -x /usr/lib/zookeeper/bin/cli_mt ] || need+=(zookeeper-bin)
command -v javac >/dev/null 2>&1 || need+=(default-jdk-headless)
command -v mvn >/dev/null 2>&1 || need+=(maven) # fetches ZooKeeper and Curator releases from Maven Central
[ -f /usr/share/java/slf4j-simple.jar ] || need+=(libslf4j-java)
command -v openssl >/dev/null 2>&1 || need+=(openssl) # the TLS tests make their certificates with it
command -v tmux >/dev/null 2>&1 || need+=(tmux) # the CLI's terminal test types into a real terminal
[ -d /usr/lib/python3/dist-packages/kazoo ] || need+=(python3-kazoo) # SetPartitioner's kazoo interop tests
command -v dnsmasq >/dev/null 2>&1 || [ -x /usr/sbin/dnsmasq ] || need+=(dnsmasq-base) # the DNS SRV tests' DNS server

if [ ${#need[@]} -eq 0 ]; then
  echo "setup: Maven, ZooKeeper, Curator and a JDK are present"
  exit 0
fi

if [ -n "${ZOOKEEPER_HOME:-}" ] && [ -d "${ZOOKEEPER_HOME}" ]; then
  echo "setup: ZOOKEEPER_HOME=${ZOOKEEPER_HOME}; not installing Debian packages (${need[*]} missing)"
  exit 0
fi

if [ "$(id -u)" != "0" ]; then
  echo "setup: missing Debian packages: ${need[*]}" >&2
  echo "setup: run as root, or: sudo apt-get install ${need[*]}" >&2
  exit 1
fi

echo "setup: installing ${need[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
echo "setup: done"
