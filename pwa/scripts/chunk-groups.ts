// How the client build groups the app's modules into files (vite.config.ts). Every file a page loads costs its
// main thread something: a link when the entry preloads it, a task when it arrives and is compiled. Without
// groups the bundler made a file of each set of modules that the same pages share: My Appointments loaded 31
// files, 16 of them under 2 KB (docs/performance.md). So, besides the entry and each page's own file:
// - `libraries`: the libraries of the app's first render, React's DOM renderer apart (evaluated in a task of its
//   own: src/lib/dom-renderer.ts);
// - `start`: the app's start, src/start.tsx and all it imports (but the entry's own modules, which the entry
//   carries, and the libraries): the app's modules, the contract's, Lingui's runtime and the English catalog;
// - `shared`: the helpers two pages or more use (src/lib, src/components, the features' api modules, date-fns,
//   and contract/cards.ts, languages.ts and slot-label.ts, the contract's words for cards and fees, languages
//   and times, which hold no schema),
//   only those whose imports are all in these files: a page that loads it loads nothing heavy with it (the
//   booking calendar and Dexie keep files of their own).
import type { Plugin } from 'vite';

type Graph = {
  getModuleIds(): IterableIterator<string>;
  getModuleInfo(id: string): { importedIds: readonly string[] } | null;
};

const LIBRARIES = /node_modules[\\/](react|react-dom|swr|wouter|use-sync-external-store|regexparam|dequal)[\\/]/;
const DOM_RENDERER = /react-dom[\\/](client|cjs[\\/]react-dom-client)|[\\/]scheduler[\\/]/;
const SHARED_CANDIDATE =
  /[\\/]pwa[\\/]src[\\/](lib|components|features[\\/][^\\/]+[\\/]api)[\\/]|node_modules[\\/](date-fns|@date-fns[\\/]tz)[\\/]|[\\/]contract[\\/](cards|languages|slot-label)\.ts$/;
const NOT_CODE = /\.css$|\.worker\.ts$/;

/** `from` and every module it imports statically, transitively. */
function importsOf(graph: Graph, from: string | undefined): Set<string> {
  const seen = new Set<string>();
  const visit = (id: string) => {
    if (seen.has(id)) return;
    seen.add(id);
    for (const next of graph.getModuleInfo(id)?.importedIds ?? []) visit(next);
  };
  if (from) visit(from);
  return seen;
}

/** The groups for rolldown's `output.codeSplitting`, and the plugin that reads the module graph they need. */
export function chunkGroups() {
  const start = new Set<string>();
  const shared = new Set<string>();
  const isLibrary = (id: string) => LIBRARIES.test(id) && !DOM_RENDERER.test(id);

  const plugin: Plugin = {
    name: 'clinic:chunk-groups',
    apply: 'build',
    // After the graph is complete, before the chunks are made (when the groups' tests run).
    buildEnd(this: Graph) {
      start.clear();
      shared.clear();
      const ids = [...this.getModuleIds()];
      const entry = importsOf(
        this,
        ids.find((id) => id.endsWith('/src/main.tsx')),
      );
      for (const id of importsOf(
        this,
        ids.find((id) => id.endsWith('/src/start.tsx')),
      ))
        if (!entry.has(id) && !isLibrary(id) && !NOT_CODE.test(id)) start.add(id);
      for (const id of ids)
        if (SHARED_CANDIDATE.test(id) && !NOT_CODE.test(id) && !entry.has(id) && !start.has(id)) shared.add(id);
      // Keep only the helpers whose imports are all in the entry, the libraries or these groups.
      const placed = (id: string) =>
        shared.has(id) || start.has(id) || entry.has(id) || isLibrary(id) || NOT_CODE.test(id);
      for (let dropped = true; dropped; ) {
        dropped = false;
        for (const id of shared)
          if (!(this.getModuleInfo(id)?.importedIds ?? []).every(placed)) {
            shared.delete(id);
            dropped = true;
          }
      }
    },
  };

  // Each group takes its modules only, not what they import: that is in the entry or another group already.
  const groups = [
    { name: 'libraries', test: isLibrary },
    { name: 'start', test: (id: string) => start.has(id), includeDependenciesRecursively: false },
    // Only what two pages or more use.
    { name: 'shared', test: (id: string) => shared.has(id), minShareCount: 2, includeDependenciesRecursively: false },
  ];
  return { plugin, groups };
}
