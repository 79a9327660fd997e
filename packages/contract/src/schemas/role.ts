import { z } from "zod";
import { ROLES } from "../roles";

/** A role on the wire (roles.ts has the names and the rules, without zod). */
export const Role = z.enum(ROLES);
export type Role = z.infer<typeof Role>;
