// The files a manifest names, looked up once when a check starts, so the gates that judge them read plain data and
// never the file system. A contact sheet is found when it is a regular file whose real path (symbolic links
// followed) lies inside the folder the manifest was read from.
import { existsSync, realpathSync, statSync } from 'node:fs';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import type { Manifest } from './formats/manifest.js';
import type { ContactSheetFile, EngineSidecars } from './index.js';

function isInside(root: string, target: string): boolean {
  const rel = relative(root, target);
  return rel !== '' && rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel);
}

function locate(reference: string, manifestDir: string): ContactSheetFile {
  const root = resolve(manifestDir);
  const target = resolve(root, reference.trim().replace(/\\/g, '/'));
  if (!isInside(root, target)) return 'outside';
  if (!existsSync(target)) return 'missing';
  try {
    if (!isInside(realpathSync(root), realpathSync(target))) return 'outside';
    return statSync(target).isFile() ? 'found' : 'missing';
  } catch {
    return 'missing';
  }
}

/** Each contact-sheet reference of the manifest (as written), looked up in `manifestDir` (the gate sets URLs apart). */
export function locateContactSheets(manifest: Manifest, manifestDir: string): Record<string, ContactSheetFile> {
  const located: Record<string, ContactSheetFile> = {};
  for (const { contactSheet } of manifest.segments) {
    if (contactSheet === undefined || contactSheet.trim() === '' || contactSheet in located) continue;
    located[contactSheet] = locate(contactSheet, manifestDir);
  }
  return located;
}

/** The sidecars with the files their manifest names looked up, when it was read from a folder. */
export function withSidecarFiles(sidecars: EngineSidecars): EngineSidecars {
  if (!sidecars.manifest || sidecars.manifestDir === undefined) return sidecars;
  return { ...sidecars, contactSheets: locateContactSheets(sidecars.manifest, sidecars.manifestDir) };
}
