// The app rendered to HTML (pwa/src/entry-server.tsx), built by `npm run build` into pwa/.page-renderer/ and
// bundled into the Worker from there (package.json's "imports").
declare module '#page-renderer' {
  /**
   * The page at `path` as the signed-in patient sees it: `answer` gives a GET /api path's JSON answer (undefined
   * when the call fails); `language`, the page's (contract/languages.ts). The app's root markup and the data block
   * for its first render; null: serve the frame.
   */
  export function renderSignedIn(
    path: string,
    patient: { email: string; verified: boolean },
    answer: (apiPath: string) => Promise<unknown>,
    language: import('../../../contract/languages.ts').Language,
  ): Promise<{ root: string; data: string } | null>;
}
