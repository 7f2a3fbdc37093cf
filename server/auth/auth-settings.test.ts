import { describe, expect, it } from "vitest";
import { isPublicPage } from "./auth-settings";

describe("isPublicPage", () => {
  it("lets signed-out visitors reach sign-in, setup, invitations, shared links and the API docs", () => {
    for (const path of ["/sign-in", "/setup/vsetup_abc", "/invite/vinv_abc", "/s/vsh_abc", "/s/vsh_abc/opengraph-image", "/api-docs"]) {
      expect(isPublicPage(path), path).toBe(true);
    }
  });
  it("keeps everything else private, including look-alike paths", () => {
    for (const path of ["/", "/p/examples", "/p/examples/e/kafka/edit", "/sign-in-x", "/s", "/setup", "/sx/abc", "/api-docsx"]) {
      expect(isPublicPage(path), path).toBe(false);
    }
  });
});
