// The files each app route needs beyond the app shell's own, for the Worker to announce with the
// shell (`Link: rel=modulepreload`), so they download beside the main bundle instead of after it has
// run. Generated from the app's route table (src/app/routes.tsx: each route's path and the module
// its lazy page imports) and Vite's manifest (that module's chunk, the chunks it imports statically,
// and their CSS). No file name is kept by hand.
import { posix } from 'node:path';
import { parseSync } from 'vite';

/** Vite's .vite/manifest.json: source module (or shared chunk key) -> its built chunk. */
export type ViteManifest = Record<
  string,
  { file: string; imports?: string[]; css?: string[]; isEntry?: boolean; dynamicImports?: string[] }
>;

/** One route of the table and the built files to preload for it (URLs like /assets/x.js). */
export type RoutePreload = { path: string; modules: string[]; styles: string[] };

/** The route table's file, relative to the PWA's root (the manifest's keys are relative to it). */
export const ROUTES_FILE = 'src/app/routes.tsx';

/** The route arrays whose pages render inside the lazy layout, and that layout's variable. */
const LAYOUT_OF: Record<string, string> = { dashboardRoutes: 'DashboardLayout' };

type Node = { type: string; [key: string]: unknown };
const isNode = (value: unknown): value is Node =>
  typeof value === 'object' && value !== null && typeof (value as Node).type === 'string';

function* children(node: Node): Generator<Node> {
  for (const value of Object.values(node)) {
    if (Array.isArray(value)) yield* value.filter(isNode);
    else if (isNode(value)) yield value;
  }
}

/** The module specifier of the first import('…') inside `node`. */
function importedModule(node: Node): string | undefined {
  if (node.type === 'ImportExpression') {
    const source = node.source as Node;
    return source.type === 'Literal' && typeof source.value === 'string' ? source.value : undefined;
  }
  for (const child of children(node)) {
    const found = importedModule(child);
    if (found) return found;
  }
  return undefined;
}

/** `{ path: '…', component: …import('…')… }` -> its path and module. */
function routeOf(node: Node): { path: string; module: string } | undefined {
  if (node.type !== 'ObjectExpression') return undefined;
  const property = (name: string) =>
    (node.properties as Node[]).find(
      (p) => p.type === 'Property' && (p.key as Node).type === 'Identifier' && (p.key as Node).name === name,
    )?.value as Node | undefined;
  const path = property('path');
  const component = property('component');
  if (path?.type !== 'Literal' || typeof path.value !== 'string' || !component) return undefined;
  const module = importedModule(component);
  return module ? { path: path.value, module } : undefined;
}

/**
 * The lazy routes of the route table's source: each route's path, the source module its page is
 * imported from and, for a page inside a lazy layout, the layout's module (paths relative to the
 * PWA's root, as the manifest keys them).
 */
export function lazyRoutesOf(source: string): { path: string; modules: string[] }[] {
  const { program, errors } = parseSync(ROUTES_FILE, source);
  if (errors.length > 0) throw new Error(`cannot parse ${ROUTES_FILE}: ${errors[0]?.message}`);
  const fromRoutes = (specifier: string) => posix.join(posix.dirname(ROUTES_FILE), specifier);

  const declarations = new Map<string, Node>();
  const visit = (node: Node) => {
    if (node.type === 'VariableDeclarator' && (node.id as Node).type === 'Identifier' && node.init) {
      declarations.set((node.id as Node).name as string, node.init as Node);
    }
    for (const child of children(node)) visit(child);
  };
  visit(program as unknown as Node);

  const routes: { path: string; modules: string[] }[] = [];
  for (const [name, init] of declarations) {
    if (init.type !== 'ArrayExpression') continue;
    const layoutName = LAYOUT_OF[name];
    let layout: string | undefined;
    if (layoutName) {
      const layoutInit = declarations.get(layoutName);
      layout = layoutInit && importedModule(layoutInit);
      if (!layout) throw new Error(`${ROUTES_FILE}: ${layoutName} (the layout of ${name}) imports no module`);
    }
    for (const element of init.elements as Node[]) {
      const route = isNode(element) ? routeOf(element) : undefined;
      if (route)
        routes.push({ path: route.path, modules: [...(layout ? [layout] : []), route.module].map(fromRoutes) });
    }
  }
  if (routes.length === 0) throw new Error(`${ROUTES_FILE} has no lazy route`);
  return routes;
}

/** The chunk of `key` and every chunk it imports statically, with their CSS (the manifest's keys). */
function closure(manifest: ViteManifest, keys: string[]): Set<string> {
  const seen = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key)) return;
    const chunk = manifest[key];
    if (!chunk) throw new Error(`Vite's manifest has no ${key}`);
    seen.add(key);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  keys.forEach(visit);
  return seen;
}

/**
 * For every lazy route of the table: its files that the app does not load already (the entry, the app it starts
 * once the page has painted, src/start.tsx, and what those import statically).
 */
export function routePreloads(manifest: ViteManifest, routesSource: string): RoutePreload[] {
  const entries = Object.keys(manifest).filter((key) => manifest[key]?.isEntry);
  const started = entries.flatMap((key) => manifest[key]?.dynamicImports ?? []);
  const shell = closure(manifest, [...entries, ...started]);
  const filesOf = (keys: Set<string>) => {
    const modules = new Set<string>();
    const styles = new Set<string>();
    for (const key of keys) {
      const chunk = manifest[key];
      if (!chunk) continue;
      if (!chunk.file.endsWith('.css')) modules.add(`/${chunk.file}`);
      for (const css of chunk.css ?? []) styles.add(`/${css}`);
    }
    return { modules, styles };
  };
  const shellFiles = filesOf(shell);
  return lazyRoutesOf(routesSource).map(({ path, modules }) => {
    const own = filesOf(closure(manifest, modules));
    return {
      path,
      modules: [...own.modules].filter((file) => !shellFiles.modules.has(file)),
      styles: [...own.styles].filter((file) => !shellFiles.styles.has(file)),
    };
  });
}
