/**
 * A keyboard-accessible file tree (WAI-ARIA tree pattern) rendered into a `<ul role="tree">`:
 * one `role="treeitem"` per visible entry with `aria-level`, `aria-expanded` on directories,
 * `aria-selected` on the current one, a roving tabindex, and the keys ↑ ↓ → ← Home End Enter Space.
 * Used by the Go and node pages.
 * @module
 */

/** An entry to show. `excluded` entries are shown dimmed (node: not saved, not listed to agents). */
export interface TreeEntry {
  readonly path: string;
  readonly kind: 'file' | 'directory';
  readonly excluded?: boolean;
}

/** Options of {@link FileTree}. */
export interface FileTreeOptions {
  /** A file was chosen (click, Enter or Space). */
  onOpen(path: string): void;
  /** The current entry changed (click or arrow keys). */
  onSelect?(entry: TreeEntry | null): void;
}

interface TreeNode {
  entry: TreeEntry;
  name: string;
  children: TreeNode[];
}

const byKindThenName = (a: TreeNode, b: TreeNode) =>
  a.entry.kind !== b.entry.kind ? (a.entry.kind === 'directory' ? -1 : 1) : a.name < b.name ? -1 : a.name > b.name ? 1 : 0;

/**
 * Renders entries as a tree and keeps the selection across updates.
 * @example
 * const tree = new FileTree(document.querySelector('#file-tree')!, { onOpen: (path) => openFile(path) });
 * tree.setEntries([{ path: 'main.go', kind: 'file' }]);
 */
export class FileTree {
  readonly #list: HTMLElement;
  readonly #options: FileTreeOptions;
  #entries: readonly TreeEntry[] = [];
  #byPath = new Map<string, TreeEntry>();
  /** Directories the user collapsed (directories are open by default). */
  readonly #collapsed = new Set<string>();
  #selected: string | null = null;
  #visible: TreeEntry[] = [];
  readonly #onClickListener = (event: MouseEvent) => this.#onClick(event);
  readonly #onKeyDownListener = (event: KeyboardEvent) => this.#onKeyDown(event);

  constructor(list: HTMLElement, options: FileTreeOptions) {
    this.#list = list;
    this.#options = options;
    list.addEventListener('click', this.#onClickListener);
    list.addEventListener('keydown', this.#onKeyDownListener);
  }

  /** Removes the tree's listeners and items (a component that mounts it again starts clean). */
  dispose(): void {
    this.#list.removeEventListener('click', this.#onClickListener);
    this.#list.removeEventListener('keydown', this.#onKeyDownListener);
    this.#list.replaceChildren();
  }

  /** The selected entry's path, or null. */
  get selected(): string | null {
    return this.#selected;
  }

  /** The selected entry, or null. */
  get selectedEntry(): TreeEntry | null {
    return this.#selected === null ? null : (this.#byPath.get(this.#selected) ?? null);
  }

  /** Replaces the entries (ancestors left implicit are added) and re-renders. */
  setEntries(entries: readonly TreeEntry[]): void {
    const byPath = new Map<string, TreeEntry>();
    for (const entry of entries) byPath.set(entry.path, entry);
    for (const entry of entries) {
      const segments = entry.path.split('/');
      for (let i = 1; i < segments.length; i++) {
        const dir = segments.slice(0, i).join('/');
        if (!byPath.has(dir)) byPath.set(dir, { path: dir, kind: 'directory' });
      }
    }
    this.#entries = [...byPath.values()];
    this.#byPath = byPath;
    if (this.#selected !== null && !byPath.has(this.#selected)) this.#selected = null;
    this.#render();
  }

  /** Selects `path` (opening its ancestors), optionally moving focus to it. */
  select(path: string | null, { focus = false } = {}): void {
    if (path !== null) {
      const segments = path.split('/');
      for (let i = 1; i < segments.length; i++) this.#collapsed.delete(segments.slice(0, i).join('/'));
    }
    const changed = path !== this.#selected;
    this.#selected = path !== null && this.#byPath.has(path) ? path : null;
    this.#render();
    if (focus) this.#itemFor(this.#selected)?.focus();
    if (changed) this.#options.onSelect?.(this.selectedEntry);
  }

  #tree(): TreeNode[] {
    const nodes = new Map<string, TreeNode>();
    for (const entry of this.#entries) nodes.set(entry.path, { entry, name: entry.path.slice(entry.path.lastIndexOf('/') + 1), children: [] });
    const roots: TreeNode[] = [];
    for (const node of nodes.values()) {
      const parent = node.entry.path.includes('/') ? nodes.get(node.entry.path.slice(0, node.entry.path.lastIndexOf('/'))) : undefined;
      (parent ? parent.children : roots).push(node);
    }
    const sort = (list: TreeNode[]) => {
      list.sort(byKindThenName);
      for (const node of list) sort(node.children);
    };
    sort(roots);
    return roots;
  }

  #render(): void {
    const visible: TreeEntry[] = [];
    const items: HTMLElement[] = [];
    const focused = this.#list.contains(document.activeElement) ? (document.activeElement as HTMLElement).dataset.path : undefined;
    const add = (nodes: TreeNode[], level: number) => {
      nodes.forEach((node, index) => {
        const { entry } = node;
        visible.push(entry);
        const item = document.createElement('li');
        item.setAttribute('role', 'treeitem');
        item.dataset.path = entry.path;
        item.setAttribute('aria-level', String(level));
        item.setAttribute('aria-setsize', String(nodes.length));
        item.setAttribute('aria-posinset', String(index + 1));
        item.style.setProperty('--level', String(level));
        item.setAttribute('aria-selected', String(entry.path === this.#selected));
        item.tabIndex = -1;
        if (entry.excluded) item.classList.add('excluded');
        const open = entry.kind === 'directory' && !this.#collapsed.has(entry.path);
        const icon = document.createElement('span');
        icon.className = 'icon';
        icon.setAttribute('aria-hidden', 'true');
        icon.textContent = entry.kind === 'directory' ? (open ? '▾' : '▸') : '·';
        item.append(icon, node.name);
        if (entry.kind === 'directory') item.setAttribute('aria-expanded', String(open));
        items.push(item);
        if (open) add(node.children, level + 1);
      });
    };
    add(this.#tree(), 1);
    this.#visible = visible;
    // Roving tabindex: the selected item, else the first, is the one Tab reaches.
    const tabbable = items.find((i) => i.dataset.path === this.#selected) ?? items[0];
    if (tabbable) tabbable.tabIndex = 0;
    this.#list.replaceChildren(...items);
    if (focused !== undefined) this.#itemFor(focused)?.focus();
  }

  #itemFor(path: string | null | undefined): HTMLElement | null {
    if (path === null || path === undefined) return null;
    return [...this.#list.querySelectorAll<HTMLElement>('[role="treeitem"]')].find((i) => i.dataset.path === path) ?? null;
  }

  #activate(entry: TreeEntry): void {
    if (entry.kind === 'directory') {
      if (this.#collapsed.has(entry.path)) this.#collapsed.delete(entry.path);
      else this.#collapsed.add(entry.path);
      this.select(entry.path, { focus: true });
    } else {
      this.select(entry.path, { focus: true });
      this.#options.onOpen(entry.path);
    }
  }

  #onClick(event: MouseEvent): void {
    const item = (event.target as HTMLElement).closest<HTMLElement>('[role="treeitem"]');
    const entry = item?.dataset.path !== undefined ? this.#byPath.get(item.dataset.path) : undefined;
    if (entry) this.#activate(entry);
  }

  #onKeyDown(event: KeyboardEvent): void {
    const item = (event.target as HTMLElement).closest<HTMLElement>('[role="treeitem"]');
    const path = item?.dataset.path;
    const index = this.#visible.findIndex((e) => e.path === path);
    if (index === -1) return;
    const entry = this.#visible[index];
    const move = (to: number) => {
      const target = this.#visible[Math.max(0, Math.min(this.#visible.length - 1, to))];
      if (target) this.select(target.path, { focus: true });
    };
    switch (event.key) {
      case 'ArrowDown':
        move(index + 1);
        break;
      case 'ArrowUp':
        move(index - 1);
        break;
      case 'Home':
        move(0);
        break;
      case 'End':
        move(this.#visible.length - 1);
        break;
      case 'ArrowRight':
        if (entry.kind === 'directory') {
          if (this.#collapsed.has(entry.path)) {
            this.#collapsed.delete(entry.path);
            this.select(entry.path, { focus: true });
          } else if (this.#visible[index + 1]?.path.startsWith(`${entry.path}/`)) move(index + 1);
        }
        break;
      case 'ArrowLeft':
        if (entry.kind === 'directory' && !this.#collapsed.has(entry.path)) {
          this.#collapsed.add(entry.path);
          this.select(entry.path, { focus: true });
        } else if (entry.path.includes('/')) {
          this.select(entry.path.slice(0, entry.path.lastIndexOf('/')), { focus: true });
        }
        break;
      case 'Enter':
      case ' ':
        this.#activate(entry);
        break;
      default:
        return;
    }
    event.preventDefault();
  }
}
