export function webCopyDir(port: number | string): string;
