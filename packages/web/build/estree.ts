/**
 * The ESTree nodes the console's build plugins read (the bundler's parser,
 * `this.parse` in a Vite plugin, answers an ESTree program with `start` and
 * `end` offsets into the source): just enough shape to walk and splice them.
 */
export interface Node {
  type: string;
  start: number;
  end: number;
  [key: string]: unknown;
}

/** Whether `value` is an ESTree node (an object with a string `type`). */
export const isNode = (value: unknown): value is Node =>
  typeof value === 'object' && value !== null && typeof (value as Node).type === 'string';
