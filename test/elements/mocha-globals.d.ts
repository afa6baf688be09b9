// The Mocha globals web-test-runner provides, for the element tests (no @types/mocha is installed).
interface AiOpsMochaContext {
  timeout(ms: number): void;
}
declare function describe(title: string, body: (this: AiOpsMochaContext) => void): void;
declare function it(title: string, body: (this: AiOpsMochaContext) => void | Promise<void>): void;
declare function before(body: (this: AiOpsMochaContext) => void | Promise<void>): void;
declare function after(body: (this: AiOpsMochaContext) => void | Promise<void>): void;
declare function beforeEach(body: (this: AiOpsMochaContext) => void | Promise<void>): void;
declare function afterEach(body: (this: AiOpsMochaContext) => void | Promise<void>): void;
