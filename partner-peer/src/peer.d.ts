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
}
export interface PartnerPeer {
  url: string;
  clientId: string;
  clientSecret: string;
  calls: string[];
  fault: PeerFault;
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
