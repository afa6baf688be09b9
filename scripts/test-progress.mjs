// A node:test reporter for `npm test`'s Node stages (scripts/test.mjs): one line when a test starts
// and one when it ends, written to its own destination beside the TAP on stdout. The TAP reporter
// prints a test only once it has finished, so a stage killed over its time limit would leave no
// trace of the test that hung; from these lines scripts/test-totals.mjs names it.
//
// Each line is JSON: ["start" | "end", file, nesting, name]. A file's own entry has its path as name.

/**
 * @param {AsyncIterable<{type: string, data: {file?: string, nesting: number, name: string}}>} source
 * @example node --test --test-reporter=tap --test-reporter-destination=stdout --test-reporter=./scripts/test-progress.mjs --test-reporter-destination=build/node-progress.log test/
 */
export default async function* testProgress(source) {
  for await (const { type, data } of source) {
    // `dequeue` is when a test leaves the queue to run; `start` comes only just before its result.
    if (type === 'test:dequeue') yield `${JSON.stringify(['start', data.file ?? '', data.nesting, data.name])}\n`;
    else if (type === 'test:complete') yield `${JSON.stringify(['end', data.file ?? '', data.nesting, data.name])}\n`;
  }
}
