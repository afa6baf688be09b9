/**
 * One React root per test, in a fresh container: created before each test of the calling
 * `describe`, unmounted and removed after it, so no test sees another's tree or listeners.
 * @example
 * const react = reactRootPerTest();
 * it('renders', () => { flushSync(() => react.root.render(el)); expect(react.container.textContent).to.equal('…'); });
 */
import { createRoot, type Root } from 'react-dom/client';

export function reactRootPerTest(): { readonly container: HTMLElement; readonly root: Root } {
  let container: HTMLElement | undefined;
  let root: Root | undefined;
  beforeEach(() => {
    container = document.createElement('div');
    document.body.append(container);
    root = createRoot(container);
  });
  afterEach(() => {
    root?.unmount();
    container?.remove();
    root = container = undefined;
  });
  return {
    get container() {
      if (!container) throw new Error('reactRootPerTest: read inside a test');
      return container;
    },
    get root() {
      if (!root) throw new Error('reactRootPerTest: read inside a test');
      return root;
    },
  };
}
