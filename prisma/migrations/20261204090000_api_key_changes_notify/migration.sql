-- Each process keeps the project API keys it has authenticated (server/projects/api-key-cache.ts)
-- for as long as it LISTENs on versus_api_keys. Every change of what a key grants announces the
-- key's secret hash there when its transaction commits, whichever statement made it: revoked,
-- renamed, rescoped, moved, deleted (also with its project, by the cascade). A project whose slug
-- changes announces "*": every key is forgotten. Recording a key's use (lastUsedAt) announces
-- nothing.
CREATE FUNCTION "notify_api_key_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('versus_api_keys', OLD."secretHash");
  RETURN NULL;
END;
$$;

CREATE TRIGGER "ApiKey_changed_notify" AFTER UPDATE OF "revokedAt", "name", "scope", "projectId", "secretHash" OR DELETE ON "ApiKey"
  FOR EACH ROW EXECUTE FUNCTION "notify_api_key_changed"();

CREATE FUNCTION "notify_project_slug_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW."slug" IS DISTINCT FROM OLD."slug" THEN
    PERFORM pg_notify('versus_api_keys', '*');
  END IF;
  RETURN NULL;
END;
$$;

CREATE TRIGGER "Project_slug_changed_notify" AFTER UPDATE OF "slug" ON "Project"
  FOR EACH ROW EXECUTE FUNCTION "notify_project_slug_changed"();
