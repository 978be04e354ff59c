/** Import specifiers of built ES modules, read from their text (enough for Rolldown's output). */

/** `import ... from "x"`, `import "x"`, `export ... from "x"` (not `import(`). */
const STATIC_IMPORT = /(?:^|[\s;})])(?:import|export)\s*(?:[\w$\s{},*]*?\bfrom\s*)?(["'`])([^"'`\n]+)\1/g;
/** `import("x")` with a literal specifier. */
const DYNAMIC_IMPORT = /\bimport\s*\(\s*(["'`])([^"'`\n]+)\1\s*\)/g;

export const staticImports = (code: string): string[] => [...code.matchAll(STATIC_IMPORT)].map((m) => m[2]!);
export const dynamicImports = (code: string): string[] => [...code.matchAll(DYNAMIC_IMPORT)].map((m) => m[2]!);

/** The file and every file it statically imports, transitively (what loads before any code runs). */
export async function staticClosure(entry: string, read: (file: string) => Promise<string>): Promise<string[]> {
  const seen = new Set<string>();
  const visit = async (file: string): Promise<void> => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const specifier of staticImports(await read(file))) {
      if (!specifier.startsWith('./')) throw new Error(`${file} imports ${specifier}: a script-tag bundle must be self-contained`);
      await visit(specifier.slice(2));
    }
  };
  await visit(entry);
  return [...seen];
}
