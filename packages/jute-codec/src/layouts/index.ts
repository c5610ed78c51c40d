export { Cursor, checkRange } from './cursor';
export { type JuteLayout, JuteLayoutBase, type JuteType } from './layout';
export { buffer, ustring, vector } from './nullable';
export { bool, int32, int64 } from './primitives';
export { type FieldsOf, type JuteRecord, juteRecord, record } from './record';
