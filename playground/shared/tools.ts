/**
 * The six tools of the playground, in the order the nav shows them.
 * @module
 */
export const TOOL_NAMES = ['sql', 'slides', 'excalidraw', 'drawio', 'node', 'go'] as const;

/** One of the six tools. */
export type ToolName = (typeof TOOL_NAMES)[number];
