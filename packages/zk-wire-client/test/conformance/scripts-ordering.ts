/**
 * Pipelined scripts: calls issued in one tick (Java: back to back without waiting), where only the order in
 * which the client takes them onto the wire and hands back their results decides the outcome. Each is a case
 * of issue 12 §1-§2; a warm-up call first makes the server version known where the issue says so.
 */
import type { Batch, Script } from './script.js';

/**
 * Issue 12 §2 shows only when the create reply, the event and the setData reply land in one socket read
 * (about 40 % of runs): eight rounds make a miss on a client with the defect unlikely.
 */
const coalescingRounds: Batch[] = Array.from({ length: 8 }, (_, round): Batch[] => [
  [{ op: 'getData', path: '/a', watch: `w${round}` }],
  [
    { op: 'create', path: `/x${round}` },
    { op: 'setData', path: '/a', data: String(round) },
  ],
]).flat();

export const orderingScripts: Script[] = [
  {
    name: 'addWatch, then create and setData in the same tick',
    since: '3.6.0',
    sessions: [null],
    batches: [
      [{ op: 'getAllChildrenNumber', path: '/' }],
      [
        { op: 'addWatch', path: '/z', mode: 'persistent', watch: 'p' },
        { op: 'create', path: '/z' },
        { op: 'setData', path: '/z', data: 'x' },
      ],
    ],
  },
  {
    name: 'addWatch first thing on a fresh session, then writes',
    since: '3.6.0',
    sessions: [null],
    batches: [
      [
        { op: 'addWatch', path: '/z', mode: 'persistent-recursive', watch: 'r' },
        { op: 'create', path: '/z' },
        { op: 'create', path: '/z/a' },
      ],
    ],
  },
  {
    name: 'checkWatches, then setData that fires the watch',
    sessions: [null],
    batches: [
      [{ op: 'create', path: '/a' }],
      [{ op: 'getData', path: '/a', watch: 'w' }],
      [
        { op: 'checkWatches', path: '/a', type: 'data' },
        { op: 'setData', path: '/a', data: '1' },
      ],
    ],
  },
  {
    name: 'removeWatches, then setData that would fire the watch',
    sessions: [null],
    batches: [
      [{ op: 'create', path: '/a' }],
      [{ op: 'getData', path: '/a', watch: 'w' }],
      [
        { op: 'removeWatches', path: '/a', type: 'data', watch: 'w' },
        { op: 'setData', path: '/a', data: '1' },
      ],
    ],
  },
  {
    name: 'getData with a watch and removeWatches in the same tick',
    sessions: [null],
    batches: [
      [{ op: 'create', path: '/a' }],
      [
        { op: 'getData', path: '/a', watch: 'w' },
        { op: 'removeWatches', path: '/a', type: 'data', watch: 'w' },
      ],
    ],
  },
  {
    name: 'removeWatches of a watcher never armed, in the tick that arms another one (exists)',
    sessions: [null],
    batches: [
      [{ op: 'create', path: '/s' }],
      [
        { op: 'exists', path: '/s/c', watch: 'w2' },
        { op: 'removeWatches', path: '/s/c', type: 'data', watch: 'w1' },
      ],
      [{ op: 'create', path: '/s/c' }],
    ],
  },
  {
    name: 'removeWatches of one watcher in the tick that arms it and another one (getData)',
    sessions: [null],
    batches: [
      [{ op: 'create', path: '/d' }],
      [
        { op: 'getData', path: '/d', watch: 'w2' },
        { op: 'getData', path: '/d', watch: 'w1' },
        { op: 'removeWatches', path: '/d', type: 'data', watch: 'w1' },
      ],
      [{ op: 'setData', path: '/d', data: 'w2 is told' }],
    ],
  },
  {
    name: 'multiRead between two setData',
    since: '3.6.0',
    sessions: [null],
    batches: [
      [{ op: 'create', path: '/a', data: '0' }],
      [
        { op: 'setData', path: '/a', data: '1' },
        { op: 'multiRead', ops: [{ type: 'getData', path: '/a' }] },
        { op: 'setData', path: '/a', data: '2' },
      ],
    ],
  },
  {
    name: 'getAllChildrenNumber between creates and a delete',
    since: '3.6.0',
    sessions: [null],
    batches: [
      [{ op: 'create', path: '/r' }],
      [
        { op: 'create', path: '/r/a' },
        { op: 'getAllChildrenNumber', path: '/r' },
        { op: 'create', path: '/r/b' },
        { op: 'getAllChildrenNumber', path: '/r' },
        { op: 'delete', path: '/r/a' },
      ],
    ],
  },
  {
    name: 'getEphemerals between create and delete',
    since: '3.6.0',
    sessions: [null],
    batches: [
      [{ op: 'create', path: '/r' }],
      [
        { op: 'create', path: '/r/e1', mode: 'ephemeral' },
        { op: 'getEphemerals', path: '/r' },
        { op: 'delete', path: '/r/e1' },
      ],
    ],
  },
  {
    name: 'create and setData of a watched node in one tick: results and event in server order',
    sessions: [null],
    batches: [
      [{ op: 'create', path: '/a' }],
      [{ op: 'getData', path: '/a', watch: 'w1' }],
      [
        { op: 'create', path: '/x' },
        { op: 'setData', path: '/a', data: '1' },
      ],
    ],
  },
  {
    name: 'create and setData of a watched node in one tick, eight rounds',
    sessions: [null],
    batches: [[{ op: 'create', path: '/a' }], ...coalescingRounds],
  },
  {
    name: 'every kind of call in one tick around watched writes',
    sessions: [null],
    batches: [
      [{ op: 'create', path: '/o' }],
      [{ op: 'getChildren', path: '/o', watch: 'c' }],
      [
        { op: 'create', path: '/o/a', data: 'a' },
        { op: 'getData', path: '/o/a', watch: 'd' },
        { op: 'create', path: '/o/b', stat: true },
        { op: 'setData', path: '/o/a', data: 'b' },
        { op: 'exists', path: '/o/c', watch: 'e' },
        {
          op: 'multi',
          ops: [
            { type: 'create', path: '/o/c' },
            { type: 'check', path: '/o', version: 0 },
          ],
        },
        {
          op: 'multi',
          ops: [
            { type: 'create', path: '/o/d' },
            { type: 'check', path: '/o', version: 2 },
          ],
        },
        { op: 'getChildren', path: '/o', watch: 'c' },
        { op: 'sync', path: '/o' },
        { op: 'getAllChildrenNumber', path: '/o' },
        { op: 'delete', path: '/o/b' },
        { op: 'getEphemerals', path: '/o' },
        { op: 'getACL', path: '/o/a' },
        { op: 'delete', path: '/o/a' },
      ],
    ],
  },
];
