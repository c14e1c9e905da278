import { defineTool, type ToolKit } from './kit.js';

async function makeListFolders({ server, folders }: ToolKit) {
  return async () => {
    let searched = folders;
    if (server.server.getClientCapabilities()?.roots) {
      // corpus-site: mark unregistered-handler
      const { roots } = await server.server.listRoots();
      searched = roots.map((root) => root.uri);
    }
    return { content: [{ type: 'text' as const, text: searched.join('\n') }] };
  };
}

export const LIST_FOLDERS = defineTool({ name: 'list_folders', description: 'The folders the catalog is read from', build: makeListFolders });
