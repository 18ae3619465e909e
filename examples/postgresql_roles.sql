-- A PostgreSQL database for epdd with two roles (docs/scaling.md, "Setting up"):
--   epdd_owner   owns the database and epdd's tables: it creates the schema (the first epdd
--                command run as it, e.g. `epdd status --store postgresql://epdd_owner@HOST/epdd`),
--                upgrades it, and runs `epdd purge` (DELETE and VACUUM).
--   epdd_worker  what every daemon and every submit/status/cancel/results runs as: it reads and
--                writes rows, and nothing else (no DELETE, no DDL, no TRUNCATE).
-- Run once as a superuser (or a role with CREATEROLE and CREATEDB):
--   sudo -u postgres psql -v ON_ERROR_STOP=1 -f postgresql_roles.sql
-- then give the two roles their passwords (psql's \password sends them hashed, never in clear):
--   sudo -u postgres psql -c '\password epdd_owner' -c '\password epdd_worker'
-- tests/integration/store/pg_role_test.sh runs this file as it is, and checks that
-- docs/scaling.md shows its statements.

CREATE ROLE epdd_owner LOGIN;
CREATE ROLE epdd_worker LOGIN;
CREATE DATABASE epdd OWNER epdd_owner;
\connect epdd

-- Only the two roles reach the database, and only the owner creates anything in it (PostgreSQL
-- 15 already denies CREATE on the schema public to others; older servers do not).
REVOKE ALL ON DATABASE epdd FROM PUBLIC;
GRANT CONNECT ON DATABASE epdd TO epdd_worker;
REVOKE ALL ON SCHEMA public FROM PUBLIC;
GRANT USAGE ON SCHEMA public TO epdd_worker;

-- The rights on everything the owner creates from now on (the schema at the first epdd command
-- run as the owner, and every table a later upgrade adds, with no new GRANT): rows read,
-- inserted and updated, and the function epdd_json_valid (used when a job's positions are
-- looked up in the cache). Nothing on the jobs' id sequence: an identity column needs none.
-- No DELETE: only `epdd purge` deletes, as the owner. No sequence, TRUNCATE, REFERENCES,
-- TRIGGER or TEMPORARY right: epdd uses none (tests/integration/store/pg_role_test.sh).
ALTER DEFAULT PRIVILEGES FOR ROLE epdd_owner IN SCHEMA public
  GRANT SELECT, INSERT, UPDATE ON TABLES TO epdd_worker;
ALTER DEFAULT PRIVILEGES FOR ROLE epdd_owner REVOKE EXECUTE ON FUNCTIONS FROM PUBLIC;
ALTER DEFAULT PRIVILEGES FOR ROLE epdd_owner IN SCHEMA public
  GRANT EXECUTE ON FUNCTIONS TO epdd_worker;

