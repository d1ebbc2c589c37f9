// A backend that is still opening: every call waits for it. `preflight mcp` answers initialize and tools/list while its
// store opens (about a second on a new data dir), and the first call that needs the store waits for the rest.
import type { ToolBackend } from './definitions.js';

export function deferredBackend(opening: Promise<ToolBackend>): ToolBackend {
  // The door that made it reports an open that fails; a call made meanwhile fails with the same error.
  opening.catch(() => {});
  return {
    createJob: async (...args) => (await opening).createJob(...args),
    estimate: async (...args) => (await opening).estimate(...args),
    getJob: async (...args) => (await opening).getJob(...args),
    listJobs: async (...args) => (await opening).listJobs(...args),
    getReport: async (...args) => (await opening).getReport(...args),
    getReceipt: async (...args) => (await opening).getReceipt(...args),
    getMarkerCsv: async (...args) => (await opening).getMarkerCsv(...args),
    getEvents: async (...args) => (await opening).getEvents(...args),
    getArtifacts: async (...args) => (await opening).getArtifacts(...args),
    getArtifactContent: async (...args) => (await opening).getArtifactContent(...args),
    verifyReceipt: async (...args) => (await opening).verifyReceipt(...args),
    createUpload: async (...args) => (await opening).createUpload(...args),
  };
}
