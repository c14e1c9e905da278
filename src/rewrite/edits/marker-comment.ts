// The comment a marker is written as: `// @mrtr-todo(<code>): <what blocks — next step>`, one
// line, escaped. The full reason and next step are in the reports (see refusal.ts).
import { TODO_MARKER } from '../../analyse/sdk-surface.ts';
import { lineComment } from '../../core/escape.ts';

export function markerComment(marker: { indent: string; code: string; text: string }): string {
  return lineComment(marker.indent, `${TODO_MARKER}(${marker.code}): ${marker.text}`);
}
