/** Tool names, shared by the registrations and the docs generator. */
export const TOOLS = {
  remove: 'remove_file',
  move: 'move_file',
  search: 'search_workspace',
  pick: 'pick_root',
  rename: 'rename_file',
} as const;
