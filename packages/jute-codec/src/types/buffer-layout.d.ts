// buffer-layout 1.2.2 ships no types. This declares only the parts the codec builds on; it never appears in
// the package's public types (records and layouts are exposed through our own interfaces).
declare module 'buffer-layout' {
  export class Layout<T = unknown> {
    constructor(span: number, property?: string);
    span: number;
    property: string | undefined;
    decode(b: Buffer, offset?: number): T;
    encode(src: T, b: Buffer, offset?: number): number;
    getSpan(b?: Buffer, offset?: number): number;
    replicate(property: string): this;
    makeDestinationObject(): Record<string, unknown>;
  }
  export class Structure<T = Record<string, unknown>> extends Layout<T> {
    constructor(fields: Layout[], property?: string, decodePrefixes?: boolean);
    fields: Layout[];
    decodePrefixes: boolean;
    layoutFor(property: string): Layout | undefined;
    offsetOf(property: string): number | undefined;
  }
}
