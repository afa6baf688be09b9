/**
 * A ref setter for the shared components that hand out a handle (the editor's view, the file
 * tree, the terminal).
 * @module
 */
import type { Ref } from 'react';

/** Gives `value` to a callback ref or a ref object (nothing for no ref). */
export function setRef<T>(ref: Ref<T> | undefined, value: T): void {
  if (typeof ref === 'function') ref(value);
  else if (ref) (ref as { current: T }).current = value;
}
