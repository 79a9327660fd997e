/** TEST PEER — the reference partner provider of docs/partner-contract.md (see peer.js). */
export interface PeerCourse {
  id: string;
  training: string;
  name: string;
  colour: string;
  pages: string[];
}
export declare const DEMO_COURSES: PeerCourse[];
export interface PeerFault {
  /** The next N API calls answer 503. */
  failNext: number;
  /** Every API call stays unanswered until the client closes it (a partner that hangs). */
  hang: boolean;
  /** html: not JSON; shape: JSON outside the contract; pdf: a certificate that is no PDF. */
  garbage: null | "html" | "shape" | "pdf";
  /** Every course's icon_url in the course list (a hostile partner); null: the peer's own icons. */
  iconUrl: string | null;
  /** The peer's own icons: a redirect, an image that never ends ("huge"), or headers and then nothing ("slow"). */
  icon: null | { redirect: string } | "huge" | "slow";
}
export interface PartnerPeer {
  url: string;
  clientId: string;
  clientSecret: string;
  calls: string[];
  fault: PeerFault;
  /** Per endless ("huge") icon served: the bytes written before the reader hung up. */
  iconBytes: number[];
  complete(userRef: string, displayName: string, courseId: string): Promise<string>;
  setProgress(userRef: string, courseId: string, count: number): void;
  tokenOf(token: string): { userRef: string; displayName: string; validUntil: Date } | undefined;
  close(): Promise<void>;
}
export declare function startPartnerPeer(options?: {
  port?: number;
  host?: string;
  clientId?: string;
  clientSecret?: string;
  tokenSeconds?: number;
  courses?: PeerCourse[];
  publicUrl?: string;
  now?: () => Date;
}): Promise<PartnerPeer>;
