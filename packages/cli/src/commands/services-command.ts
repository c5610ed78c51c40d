/**
 * `services PATH [NAME]`: the service instances registered under a curator-x-discovery base path
 * (`<PATH>/<service>/<instance id>`, each node an instance as Curator's JsonInstanceSerializer writes it),
 * decoded with @zkwire/discovery: address, ports, type, whether it is enabled, the owning session of an
 * ephemeral (DYNAMIC) instance, the URI its UriSpec builds and the payload. A node that does not decode is
 * listed with its path and the reason, never skipped silently.
 */
import { buildUri, deserializeInstance } from '@zkwire/discovery';
import type { CommandContext, CommandSpec } from '../command-spec.js';
import { hex } from '../stat-format.js';
import { childPath, childrenOrNone, readNodes } from './recipe-nodes.js';

/** One instance as reported. */
export interface InstanceView {
  id: string;
  node: string;
  address: string | null;
  port: number | null;
  sslPort: number | null;
  serviceType: string;
  enabled: boolean;
  registered: string;
  /** The owning session of an ephemeral instance, '0x0' for a persistent one. */
  session: string;
  uri: string;
  payload: unknown;
  /** Set when the node's data is not an instance: the reason. */
  corrupt?: string;
}

/** One service with its instances. */
export interface ServiceView {
  name: string;
  instances: InstanceView[];
}

/** What `services` reports. */
export interface ServicesReport {
  basePath: string;
  services: ServiceView[];
}

async function readService(context: CommandContext, basePath: string, name: string): Promise<ServiceView> {
  const servicePath = childPath(basePath, name);
  const ids = (await childrenOrNone(context, servicePath)).sort();
  const nodes = await readNodes(context, servicePath, ids);
  const instances = nodes.map((node): InstanceView => {
    const session = hex(node.stat.ephemeralOwner);
    try {
      const instance = deserializeInstance(node.data ?? new Uint8Array(0), node.path);
      return {
        id: instance.id,
        node: node.path,
        address: instance.address,
        port: instance.port,
        sslPort: instance.sslPort,
        serviceType: instance.serviceType,
        enabled: instance.enabled,
        registered: new Date(instance.registrationTimeUTC).toISOString(),
        session,
        uri: buildUri(instance),
        payload: instance.payload,
      };
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      return {
        id: node.name,
        node: node.path,
        address: null,
        port: null,
        sslPort: null,
        serviceType: '?',
        enabled: false,
        registered: '',
        session,
        uri: '',
        payload: null,
        corrupt: reason,
      };
    }
  });
  return { name, instances };
}

function render(context: CommandContext, report: ServicesReport): string[] {
  const { colors } = context.out;
  if (report.services.length === 0) return [`${report.basePath}: no services`];
  const lines: string[] = [];
  for (const service of report.services) {
    lines.push(colors.bold(`${service.name} (${service.instances.length})`));
    for (const i of service.instances) {
      if (i.corrupt !== undefined) {
        lines.push(
          `  ${colors.red(i.id)}  ${colors.red(`not an instance: ${i.corrupt}`)}  ${colors.dim(i.node)}`,
        );
        continue;
      }
      const where = `${i.address ?? '?'}:${i.port ?? '-'}${i.sslPort !== null ? ` ssl:${i.sslPort}` : ''}`;
      const state = i.enabled ? '' : ` ${colors.yellow('disabled')}`;
      const payload = i.payload === null ? '' : `  payload ${JSON.stringify(i.payload)}`;
      lines.push(
        `  ${colors.green(i.id)}  ${where}  ${i.serviceType}${state}  ${colors.yellow(`session ${i.session}`)}${i.uri ? `  ${i.uri}` : ''}${payload}`,
      );
    }
  }
  return lines;
}

const services: CommandSpec = {
  name: 'services',
  args: ['<path>', '[name]'],
  summary: 'the service instances of a curator-x-discovery base path (or of one service)',
  async run(context, [path, name]) {
    const basePath = path as string;
    const names = name !== undefined ? [name] : (await childrenOrNone(context, basePath)).sort();
    const report: ServicesReport = {
      basePath,
      services: await Promise.all(names.map((n) => readService(context, basePath, n))),
    };
    context.out.result(report, () => render(context, report));
  },
};

/** The services command. */
export const servicesCommands: readonly CommandSpec[] = [services];
