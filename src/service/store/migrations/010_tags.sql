-- Tags: user tags and private-key tags of an organization, by id. Which users carry a
-- user tag stays in users.user_tags (the tag ids, as create_users has always stored them); names
-- are unique per organization and type, as the hosted service refuses a second tag of one name.
CREATE TABLE tags (
  seq              bigserial UNIQUE,            -- creation order
  id               text PRIMARY KEY,            -- tagId
  organization_id  text NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  name             text NOT NULL,
  type             text NOT NULL CHECK (type IN ('TAG_TYPE_USER', 'TAG_TYPE_PRIVATE_KEY')),
  created_at       bigint NOT NULL,
  updated_at       bigint NOT NULL,
  UNIQUE (organization_id, type, name)
);
CREATE INDEX tags_org ON tags (organization_id, type, seq);
