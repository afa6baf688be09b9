/**
 * The file tree (file-tree.ts, the WAI-ARIA tree pattern) as a React component for the Go and
 * node pages: the tree is created on the list by one effect and disposed by its cleanup; entries
 * and the selection are passed down as props.
 * @module
 */
import { useEffect, useRef, type Ref } from 'react';
import { FileTree, type TreeEntry } from './file-tree.js';
import { setRef } from './set-ref.js';

export type { TreeEntry } from './file-tree.js';
export { FileTree } from './file-tree.js';

/** Props of {@link FileTreeView}. */
export interface FileTreeViewProps {
  entries: readonly TreeEntry[];
  /** A file was chosen (click, Enter or Space). */
  onOpen(path: string): void;
  /** The current entry changed. */
  onSelect?(entry: TreeEntry | null): void;
  /** The id of the tree's heading. */
  labelledBy: string;
  id?: string;
  /** Receives the tree while mounted, for `select(path, { focus })` and `selectedEntry`. */
  treeRef?: Ref<FileTree | null>;
}

/** A `<ul role="tree">` the tree renders into. */
export function FileTreeView({ entries, onOpen, onSelect, labelledBy, id, treeRef }: FileTreeViewProps) {
  const list = useRef<HTMLUListElement>(null);
  const tree = useRef<FileTree | null>(null);
  const latest = useRef({ onOpen, onSelect, entries, treeRef });
  latest.current = { onOpen, onSelect, entries, treeRef };

  useEffect(() => {
    if (!list.current) return;
    const created = new FileTree(list.current, {
      onOpen: (path) => latest.current.onOpen(path),
      onSelect: (entry) => latest.current.onSelect?.(entry),
    });
    created.setEntries(latest.current.entries);
    tree.current = created;
    setRef(latest.current.treeRef, created);
    return () => {
      setRef(latest.current.treeRef, null);
      tree.current = null;
      created.dispose();
    };
  }, []);

  useEffect(() => {
    tree.current?.setEntries(entries);
  }, [entries]);

  return <ul ref={list} id={id} className="tree" role="tree" aria-labelledby={labelledBy} />;
}
