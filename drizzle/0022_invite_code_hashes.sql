-- Invite codes are kept only as their SHA-256 (hex), like API keys and sign-in links. Existing codes,
-- used or not, are hashed in place, so an unused invite sent before the upgrade still works. sha256_hex
-- is registered on the connection by src/store/db.ts before the migrations run. secure_delete makes
-- SQLite zero the space the plain codes leave behind (the service folds the WAL into the file after an
-- upgrade), so they do not linger in free pages.
PRAGMA secure_delete = ON;--> statement-breakpoint
ALTER TABLE `invites` RENAME COLUMN `code` TO `code_hash`;--> statement-breakpoint
UPDATE `invites` SET `code_hash` = sha256_hex(`code_hash`);--> statement-breakpoint
PRAGMA secure_delete = OFF;
