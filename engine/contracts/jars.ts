/**
 * The jars service: the jars uploaded to a cluster (`/jars`), uploading and deleting them. Planning and running a jar
 * go through the operations service (`planResubmit`, and `start` with a `resubmit` that may name no job): the same
 * confirmation and journal as a resubmit.
 */

export interface JarsApi {
  /** The cluster's jars, newest first; `unavailable` says why none can be run (web submission off, a session without jars). */
  list(clusterId: string): Promise<JarList>;
  /** Uploads a jar (`POST /jars/upload`, multipart); its bytes as base64. */
  upload(clusterId: string, upload: JarUpload): Promise<JarInfo>;
  /** Deletes an uploaded jar (`DELETE /jars/:jarid`). */
  delete(clusterId: string, jarId: string): Promise<void>;
}

export interface JarInfo {
  /** Flink's jar id: the stored file name, `<uuid>_<name>.jar`. */
  id: string;
  name: string;
  /** Epoch ms; null when Flink gives none. */
  uploaded: number | null;
  /** The jar's entry classes (its manifest's main class; several when it declares them). */
  entryClasses: string[];
}

export interface JarList {
  jars: JarInfo[];
  /** null when jars can be uploaded and run; else why not, in words. */
  unavailable: string | null;
}

export interface JarUpload {
  /** The file's name, e.g. `gatewaymeter.jar`: it must end in `.jar`. */
  fileName: string;
  contentBase64: string;
}

/** Flink's default `rest.server.max-content-length`: a larger upload is refused before it is sent. */
export const MAX_JAR_UPLOAD_BYTES = 104_857_600;
