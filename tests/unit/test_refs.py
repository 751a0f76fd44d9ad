"""The reference parser: whole numbers, own-repository URLs, and no crash on any text."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from cockpit.domain.commits import CommitRecord, EvidenceKind
from cockpit.services import refs

REPO = "acme/torchlet"
numbers = st.integers(min_value=1, max_value=10**7)
titles = st.text(
    alphabet=st.characters(categories=("L", "Zs"), exclude_characters="\n\r"), min_size=1, max_size=40
).filter(lambda t: t.strip())


@given(n=numbers, m=numbers)
def test_hash_n_names_only_n(n, m):
    text = f"see #{n}, then more"
    assert refs.mentioned_prs(text) == {n}
    if m != n:
        assert m not in refs.mentioned_prs(text)


@given(n=numbers, tail=st.integers(min_value=0, max_value=9))
def test_a_shorter_number_never_matches_inside_a_longer_one(n, tail):
    longer = int(f"{n}{tail}")
    assert n not in refs.mentioned_prs(f"fixes #{longer}")
    assert n not in refs.pr_urls(f"https://github.com/{REPO}/pull/{longer}", REPO)
    assert refs.pr_urls(f"https://github.com/{REPO}/pull/{longer}", REPO) == {longer}


@given(word=st.from_regex(r"[A-Za-z0-9_]{1,8}", fullmatch=True), n=numbers)
def test_a_number_glued_to_a_word_is_no_reference(word, n):
    assert refs.mentioned_prs(f"{word}#{n}") == set()


@given(n=numbers)
def test_own_repository_qualified_references_count_others_do_not(n):
    assert refs.mentioned_prs(f"see {REPO}#{n}", REPO) == {n}
    assert refs.mentioned_prs(f"see other/lib#{n}", REPO) == set()
    assert refs.pr_urls(f"https://github.com/other/lib/pull/{n}", REPO) == set()
    assert refs.pr_urls(f"https://github.com/acme/torchlet-extra/pull/{n}", REPO) == set()


@given(title=titles, prs=st.lists(numbers, min_size=1, max_size=3))
def test_subject_suffixes_are_read_in_order(title, prs):
    subject = title.rstrip() + "".join(f" (#{n})" for n in prs)
    assert refs.subject_prs(subject) == tuple(prs)
    assert refs.normalized_subject(f"[release/2.5] {subject}") == " ".join(title.split()).lower()


@given(title=titles, n=numbers)
def test_a_revert_subject_does_not_claim_the_reverted_pr(title, n):
    subject = f'Revert "{title.strip()} (#{n})"'
    assert refs.subject_prs(subject) == ()
    assert refs.reverted_title(subject) == f"{title.strip()} (#{n})"
    found = refs.branch_refs(CommitRecord("b" * 40, subject, "This reverts commit " + "a" * 40 + "."), REPO)
    assert found.prs == {} and found.reverts == "a" * 40


@given(text=st.text(max_size=300))
def test_no_text_makes_the_parser_crash(text):
    commit = CommitRecord("c" * 40, text.partition("\n")[0], text)
    refs.branch_refs(commit, REPO)
    refs.trunk_prs(commit, REPO)
    refs.fixed_issues(text, REPO)
    refs.all_prs(commit, REPO)
    refs.revert_target(commit)
    refs.normalized_subject(text)


@given(n=numbers, word=st.sampled_from(["Fixes", "fixed", "CLOSES", "Fix", "resolves"]))
def test_fix_keywords_name_whole_issue_numbers(n, word):
    assert refs.fixed_issues(f"{word} #{n}", REPO) == {n}
    assert refs.fixed_issues(f"{word} https://github.com/{REPO}/issues/{n}", REPO) == {n}
    assert refs.fixed_issues(f"{word} #{n}0", REPO) == {int(f"{n}0")}
    assert refs.fixed_issues(f"{word} https://github.com/other/lib/issues/{n}", REPO) == set()


def test_the_merge_bots_trunk_commit_names_its_pr_by_line_and_suffix():
    commit = CommitRecord(
        "a" * 40,
        "Fix thing (#1234)",
        f"Body mentions #99.\n\nPull Request resolved: https://github.com/{REPO}/pull/1234\nApproved by: x",
    )
    assert refs.trunk_prs(commit, REPO) == {1234}


def test_a_trunk_commit_resolving_another_repositorys_pr_is_not_ours():
    commit = CommitRecord("a" * 40, "Sync", "Pull Request resolved: https://github.com/other/lib/pull/12")
    assert refs.trunk_prs(commit, REPO) == set()


def test_a_pick_copied_with_its_body_does_not_claim_prs_its_body_mentions():
    body = (
        f"Follow-up to #500 and https://github.com/{REPO}/pull/501\n\n"
        f"Pull Request resolved: https://github.com/{REPO}/pull/600\n(cherry picked from commit {'f' * 40})"
    )
    found = refs.branch_refs(CommitRecord("b" * 40, "Fix leak (#600) (#952)", body), REPO)
    assert set(found.prs) == {600, 952}
    assert found.picked_from == ("f" * 40,)


def test_a_bare_branch_commit_body_mentions_count():
    found = refs.branch_refs(
        CommitRecord("b" * 40, "Backport loader fix", f"From https://github.com/{REPO}/pull/77 and #78"), REPO
    )
    assert found.prs == {77: EvidenceKind.PR_URL, 78: EvidenceKind.PR_NUMBER}


def test_a_bulk_pick_needs_at_least_two_bullets():
    assert refs.bulk_pick_prs("* Fix A (#1)\n- Fix B (#2)\n") == (1, 2)
    assert refs.bulk_pick_prs("* Fix A (#1)\n") == ()
    found = refs.branch_refs(CommitRecord("b" * 40, "Cherry-picks for 1.0.1 (#9)", "* Fix A (#1)\n* Fix B (#2)"), REPO)
    assert found.prs == {9: EvidenceKind.PR_NUMBER, 1: EvidenceKind.BULK_PICK, 2: EvidenceKind.BULK_PICK}


def test_html_entities_and_anchors_are_not_references():
    assert refs.mentioned_prs("&#123; and page/#45 and ##7") == set()


urlish = st.text(alphabet="htps:/.gihubcomacmeorlTP-_0123456789 ", max_size=60)


@given(tail=urlish, n=numbers, host=st.sampled_from(["github.com", "ghe.corp.example", "GitHub.com"]))
def test_the_resolved_line_reads_exactly_what_the_url_pattern_reads(tail, n, host):
    for url in (
        f"https://{host}/{REPO}/pull/{n}",
        f"http://{host}/{REPO.upper()}/pull/{n}",
        tail,
        f"https://{host}/{REPO}/pull/{n}{tail}",
        f"https://{host}/{REPO}-x/pull/{n}",
        f"https://{tail}/{REPO}/pull/{n}",
    ):
        match = refs._url_pattern(REPO, "pull").fullmatch(url)
        assert refs._own_pull_number(url, REPO) == (int(match.group(1)) if match else None), url


@given(n=numbers, other=numbers)
def test_the_before_cut_grep_finds_whole_numbers_of_this_repository_only(n, other):
    import re

    from cockpit.services.branch_loader import before_cut_pattern

    pattern = re.compile(before_cut_pattern([n], REPO), re.M)
    assert pattern.search(f"Fix (#{n})") and pattern.search(
        f"Pull Request resolved: https://github.com/{REPO}/pull/{n}"
    )
    assert not pattern.search(f"Fix (#{n}0)") and not pattern.search(f"https://github.com/other/lib/pull/{n}")
    assert not pattern.search(f"https://github.com/acmeXtorchlet/pull/{n}")
    if other != n:
        assert not pattern.search(f"see #{other}")


@given(n=numbers, head=st.integers(min_value=1, max_value=999))
def test_a_number_is_never_read_from_the_tail_of_a_longer_one(n, head):
    longer = int(f"{head}{n}")
    commit = CommitRecord(
        "a" * 40, f"Fix it (#{longer})", f"Pull Request resolved: https://github.com/{REPO}/pull/{longer}"
    )
    assert refs.trunk_prs(commit, REPO) == {longer}
    assert n not in refs.mentioned_prs(f"see #{longer} and {REPO}#{longer}", REPO)
    assert n not in refs.branch_refs(commit, REPO).prs and n not in refs.all_prs(commit, REPO)


def test_a_kept_pick_names_its_pr_by_suffix_and_by_the_exact_resolved_url():
    commit = CommitRecord(
        "c" * 40,
        "Fix loader (#1234)",
        f"Body.\n\nPull Request resolved: https://github.com/{REPO}/pull/1234\n\n"
        f"(cherry picked from commit {'d' * 40})",
    )
    found = refs.branch_refs(commit, REPO)
    assert found.kinds[1234] == (EvidenceKind.PR_NUMBER, EvidenceKind.PR_URL)
    assert found.prs[1234] is EvidenceKind.PR_NUMBER
