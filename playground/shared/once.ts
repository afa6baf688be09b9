/**
 * A page's start that runs once per document however often it is asked for (StrictMode's second
 * effect, every later visit to the page).
 * @example export const bootDrawio = once(() => provideOperations('drawio', createDrawioOperations(adapter)));
 */
export function once(start: () => void): () => void {
  let started = false;
  return () => {
    if (started) return;
    started = true;
    start();
  };
}
