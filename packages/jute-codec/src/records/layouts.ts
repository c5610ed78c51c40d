// The raw record layouts, for nesting in records of sibling packages (multi bodies, for instance).
export { ACLLayout, ClientInfoLayout, IdLayout, StatLayout } from './data';
export * from './operations';
export * from './session';
