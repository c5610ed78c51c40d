// DataViews over the ArrayBuffer under a Buffer, for the fast decoders (a reply's Stats) and encoders (a
// multi's ints).
//
// A typed array's `buffer` and `byteOffset` are getters on %TypedArray%.prototype. Read as properties
// (`buf.buffer`), each went through V8's generic accessor load, `buffer` into a C++ builtin, once each per
// reply with a Stat: about twice the cost of calling the getters directly. The same reason as `copyBytes` in
// write.ts.
const typedArrayPrototype = Object.getPrototypeOf(Uint8Array.prototype) as object;
const bufferGetter = Object.getOwnPropertyDescriptor(typedArrayPrototype, 'buffer')?.get as (
  this: Uint8Array,
) => ArrayBufferLike;
const byteOffsetGetter = Object.getOwnPropertyDescriptor(typedArrayPrototype, 'byteOffset')?.get as (
  this: Uint8Array,
) => number;

/** `buf.byteOffset`, read through the getter itself (see above). */
export function byteOffsetOf(buf: Uint8Array): number {
  return byteOffsetGetter.call(buf);
}

/**
 * The last DataView made, handed out again while buffers come from the same ArrayBuffer: one view serves
 * buffer after buffer cut from one read buffer, pool or slab, instead of a new view per buffer. It keeps that
 * ArrayBuffer reachable until a buffer from another is seen. Each user keeps its own cache, so that two kinds
 * of buffers used in turn (replies and request frames) do not replace each other's view at every call.
 */
export class ViewCache {
  private viewedBuffer: ArrayBufferLike | undefined = undefined;
  private lastView: DataView<ArrayBufferLike> = new DataView(new ArrayBuffer(0));

  /** A DataView over the whole ArrayBuffer under `buf`: `buf[offset]` is at `byteOffsetOf(buf) + offset`. */
  viewOf(buf: Uint8Array): DataView<ArrayBufferLike> {
    const arrayBuffer = bufferGetter.call(buf);
    if (arrayBuffer !== this.viewedBuffer) {
      this.lastView = new DataView(arrayBuffer);
      this.viewedBuffer = arrayBuffer;
    }
    return this.lastView;
  }
}
