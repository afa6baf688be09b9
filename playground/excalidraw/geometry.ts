/**
 * Arrow geometry for elements the page adds or moves for an agent. Excalidraw computes it itself
 * only while a person drags; `updateScene` takes elements as given, so the page places a bound
 * arrow's ends on its shapes' outlines and a label in its container (PLATFORM-NOTES).
 * Pure functions, no Excalidraw import: unit-testable and cheap.
 * @module
 */

/** A point in scene coordinates. */
export interface Point {
  x: number;
  y: number;
}

/** The part of an element the geometry needs. */
export interface Box {
  readonly type: string;
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
  /** Radians, clockwise, around the centre (Excalidraw's `angle`). */
  readonly angle?: number;
}

/** The space Excalidraw leaves between a bound arrow's end and the shape's outline. */
export const BINDING_GAP = 8;

/** The centre of a box. */
export function centre(box: Box): Point {
  return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
}

const rotate = (p: Point, angle: number): Point => {
  if (!angle) return p;
  const cos = Math.cos(angle);
  const sin = Math.sin(angle);
  return { x: p.x * cos - p.y * sin, y: p.x * sin + p.y * cos };
};

/**
 * Where the ray from the box's centre toward `toward` leaves the box's outline (an ellipse, a
 * diamond, or a rectangle for everything else), moved `gap` further along the ray.
 * @example edgePoint({ type: 'rectangle', x: 0, y: 0, width: 100, height: 50 }, { x: 200, y: 25 }, 8) // { x: 108, y: 25 }
 */
export function edgePoint(box: Box, toward: Point, gap = BINDING_GAP): Point {
  const c = centre(box);
  const angle = box.angle ?? 0;
  // Work in the box's own frame, so a rotated shape is handled like an upright one.
  const d = rotate({ x: toward.x - c.x, y: toward.y - c.y }, -angle);
  const length = Math.hypot(d.x, d.y);
  if (length === 0) return c;
  const a = Math.max(box.width / 2, 1e-6);
  const b = Math.max(box.height / 2, 1e-6);
  let t: number;
  if (box.type === 'ellipse') t = 1 / Math.sqrt((d.x / a) ** 2 + (d.y / b) ** 2);
  else if (box.type === 'diamond') t = 1 / (Math.abs(d.x) / a + Math.abs(d.y) / b);
  else t = Math.min(d.x === 0 ? Infinity : a / Math.abs(d.x), d.y === 0 ? Infinity : b / Math.abs(d.y));
  const scale = t + gap / length;
  const out = rotate({ x: d.x * scale, y: d.y * scale }, angle);
  return { x: c.x + out.x, y: c.y + out.y };
}

/** A linear element's placement: its origin, its points relative to it, and its extent. */
export interface LinearGeometry {
  x: number;
  y: number;
  points: [number, number][];
  width: number;
  height: number;
}

/**
 * Turns absolute points into Excalidraw's linear-element form (the first point at 0,0).
 * @example toLinear([{ x: 10, y: 10 }, { x: 40, y: 0 }]) // { x: 10, y: 10, points: [[0,0],[30,-10]], width: 30, height: 10 }
 */
export function toLinear(absolute: readonly Point[]): LinearGeometry {
  const [first] = absolute;
  const xs = absolute.map((p) => p.x);
  const ys = absolute.map((p) => p.y);
  return {
    x: first.x,
    y: first.y,
    points: absolute.map((p) => [p.x - first.x, p.y - first.y]),
    width: Math.max(...xs) - Math.min(...xs),
    height: Math.max(...ys) - Math.min(...ys),
  };
}

/** Absolute points of a linear element. */
export function absolutePoints(element: { x: number; y: number; points: readonly (readonly number[])[] }): Point[] {
  return element.points.map(([px, py]) => ({ x: element.x + px, y: element.y + py }));
}

/**
 * The points of an arrow whose start and/or end are bound to shapes: a bound end sits on its
 * shape's outline, aimed at the other end (the other shape's centre for a straight arrow between
 * two shapes, else the neighbouring point). Free ends and inner points stay.
 */
export function routeArrow(points: readonly Point[], start: Box | null, end: Box | null, gaps: { start?: number; end?: number } = {}): Point[] {
  const out = points.map((p) => ({ ...p }));
  const last = out.length - 1;
  if (last < 1) return out;
  // A straight arrow aims each bound end at the other shape's centre; otherwise (a free other end,
  // inner points, or a shape bound to itself, which would collapse) at its neighbouring point.
  const startAim = last === 1 && end && end !== start ? centre(end) : points[1];
  const endAim = last === 1 && start && start !== end ? centre(start) : points[last - 1];
  if (start) out[0] = edgePoint(start, startAim, gaps.start ?? BINDING_GAP);
  if (end) out[last] = edgePoint(end, endAim, gaps.end ?? BINDING_GAP);
  return out;
}

/** The midpoint of a polyline, by length (where Excalidraw centres an arrow's label). */
export function midpoint(points: readonly Point[]): Point {
  if (points.length === 1) return points[0];
  const lengths = points.slice(1).map((p, i) => Math.hypot(p.x - points[i].x, p.y - points[i].y));
  let remaining = lengths.reduce((a, b) => a + b, 0) / 2;
  for (const [i, length] of lengths.entries()) {
    if (remaining <= length && length > 0) {
      const k = remaining / length;
      return { x: points[i].x + (points[i + 1].x - points[i].x) * k, y: points[i].y + (points[i + 1].y - points[i].y) * k };
    }
    remaining -= length;
  }
  return points[points.length - 1];
}

/** Places a label of the given size centred on `at`. */
export function centredAt(at: Point, size: { width: number; height: number }): Point {
  return { x: at.x - size.width / 2, y: at.y - size.height / 2 };
}
