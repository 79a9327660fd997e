import { describe, expect, it } from "vitest";
import { type UserFormInput, userFormProblems } from "./user-form";

const valid: UserFormInput = {
  salutation: "-",
  name: "Jürgen",
  surname: "Müller-Weiß",
  login: "j.mueller",
  password: "Sicher-123!",
  roles: ["employee"],
  facility: 1,
};
const create = { creating: true, salutationRequired: false };
const edit = { creating: false, salutationRequired: false };

describe("user form rules (spec §5, §6)", () => {
  it("accepts a complete user, and an edit without a new password", () => {
    expect(userFormProblems(valid, create)).toEqual({});
    expect(userFormProblems({ ...valid, password: "" }, edit)).toEqual({});
  });

  it("needs name, surname and login, without spaces in the login", () => {
    expect(userFormProblems({ ...valid, name: " ", surname: "", login: "" }, create)).toEqual({
      name: "required",
      surname: "required",
      login: "required",
    });
    expect(userFormProblems({ ...valid, login: "j mueller" }, create)).toEqual({ login: "loginSpaces" });
  });

  it("needs a password on creation, and any password given must follow the rule", () => {
    expect(userFormProblems({ ...valid, password: "" }, create)).toEqual({ password: "required" });
    expect(userFormProblems({ ...valid, password: "kurz" }, edit)).toEqual({ password: "password.length" });
    expect(userFormProblems({ ...valid, password: "Sicher-123ä" }, create)).toEqual({
      password: "password.characters",
    });
  });

  it("needs a salutation only when salutations are shown", () => {
    expect(userFormProblems(valid, { creating: true, salutationRequired: true })).toEqual({
      salutation: "salutationRequired",
    });
    expect(userFormProblems({ ...valid, salutation: "Ms" }, { creating: true, salutationRequired: true })).toEqual({});
  });

  it("needs a facility for facility roles and refuses facility and facility-less roles together", () => {
    expect(userFormProblems({ ...valid, facility: null }, create)).toEqual({ facility: "facilityRequired" });
    expect(userFormProblems({ ...valid, roles: [], facility: null }, create)).toEqual({ facility: "facilityRequired" });
    expect(userFormProblems({ ...valid, roles: ["contentmanager"], facility: null }, create)).toEqual({});
    expect(userFormProblems({ ...valid, roles: ["contentmanager", "administrator"] }, create)).toEqual({
      roles: "roleConflict",
    });
  });
});
