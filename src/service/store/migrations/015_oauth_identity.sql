-- OAuth logins and sign-up checks find a user by the OIDC identity of a verified ID token.
CREATE INDEX oauth_providers_identity ON oauth_providers (issuer, subject);
