export interface TranslationPeer {
  /** Its address, http://127.0.0.1:<port>. */
  url: string;
  /** Every request body received, newest last. */
  received: Record<string, unknown>[];
  /** Answer every request with this status (0: translate). */
  failWith: number;
  close(): Promise<void>;
}
export function fakeTranslation(text: string, target: string): string;
export function startTranslationPeer(port?: number, apiKey?: string | null): Promise<TranslationPeer>;
