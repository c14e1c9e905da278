// The comment a marker is written as: `// @mrtr-todo(<code>): <reason> Next: <next>`, escaped.
import { TODO_MARKER } from '../../analyse/sdk-surface.ts';
import { lineComment } from '../../core/escape.ts';

export function markerComment(marker: { indent: string; code: string; reason: string; next: string }): string {
  return lineComment(marker.indent, `${TODO_MARKER}(${marker.code}): ${marker.reason} Next: ${marker.next}`);
}
